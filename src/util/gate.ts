/**
 * A counting gate: at most `size` holders at once, the others wait in
 * order. A holder gives its place back by calling the release function it
 * got (more than once is harmless) or, at the latest, after `holdMs`, so a
 * holder that never finishes (a client that does not read its reply) cannot
 * close the gate for everyone.
 */
export class Gate {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(size: number, private readonly holdMs: number) {
    this.#free = size;
  }

  async enter(): Promise<() => void> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    };
    const timer = setTimeout(release, this.holdMs);
    return release;
  }
}

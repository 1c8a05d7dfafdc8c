/** The tail of a plugin's stderr, shown in its tab when it fails (P6). */

/** The last `max` bytes of a stream (a failed plugin's stderr, P6), decoded without a cut character. */
export class TailBuffer {
  #bytes = new Uint8Array(0);

  constructor(readonly max: number) {}

  push(chunk: Uint8Array): void {
    const joined = new Uint8Array(this.#bytes.length + chunk.length);
    joined.set(this.#bytes);
    joined.set(chunk, this.#bytes.length);
    this.#bytes = joined.length > this.max ? joined.slice(joined.length - this.max) : joined;
  }

  clear(): void {
    this.#bytes = new Uint8Array(0);
  }

  text(): string {
    let start = 0;
    // A multi-byte character cut by the window: drop its continuation bytes.
    while (start < this.#bytes.length && (this.#bytes[start]! & 0xc0) === 0x80) start++;
    return new TextDecoder().decode(this.#bytes.subarray(start));
  }
}

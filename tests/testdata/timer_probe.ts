/**
 * A `--preload` module: records in $TIMER_PROBE each time the program reads
 * the global setTimeout or setInterval (Deno 2.9 loads Node's timers on that
 * first read, 13–15 ms; src/util/async.ts). Used by
 * tests/light_timers_test.ts.
 */

const probe = Deno.env.get("TIMER_PROBE");
for (const name of ["setTimeout", "setInterval"] as const) {
  const own = Object.getOwnPropertyDescriptor(globalThis, name);
  if (!probe || !own) continue;
  Object.defineProperty(globalThis, name, {
    configurable: true,
    enumerable: own.enumerable ?? false,
    get() {
      const stack = new Error().stack?.split("\n")[2]?.trim() ?? "";
      Deno.writeTextFileSync(probe, `${name} ${stack}\n`, { append: true });
      return own.get ? own.get.call(globalThis) : own.value;
    },
    set(value) {
      Object.defineProperty(globalThis, name, { configurable: true, writable: true, value });
    },
  });
}

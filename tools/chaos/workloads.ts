/**
 * What the chaos run's sessions print: one bash script, work.sh beside
 * this file, `bash work.sh KIND SEED`, each kind a loop of what real
 * programs do to a terminal, paced by bash's own RANDOM seeded from the
 * run's seed (the same seed prints the same things in the same order).
 */

/** The kinds, in the order sessions are given them (session i gets KINDS[i % KINDS.length]). */
export const KINDS = [
  "flood",
  "alt",
  "wide",
  "clears",
  "shell",
  "progress",
  "lines",
  "resize",
  "spinner",
  "cursor",
] as const;

export type Kind = typeof KINDS[number];

/** work.sh: `$1` the kind, `$2` the seed. Shells (`shell`) are started without it. */
export const WORK_SCRIPT = new URL("./work.sh", import.meta.url).pathname;

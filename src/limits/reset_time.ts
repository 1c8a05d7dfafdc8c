/**
 * When a usage limit resets, from the words a CLI prints (docs/limits.md): an
 * absolute instant (epoch ms), or null when the text names no time. Pure: the
 * clock (`now`) and the zone of the agent's environment are given.
 *
 * What is read:
 * - a time: `1am`, `2:34pm`, `10:05 AM`, `14:05`;
 * - an optional date: `Dec 5`, `December 5`, `5 Dec`, `Dec 5, 2026`, `on 5 Dec`;
 * - an optional zone: an IANA name in parentheses (`(America/Los_Angeles)`), an
 *   offset (`GMT+5:30`, `UTC-08:00`), `UTC`/`GMT`, or a US abbreviation (`PST`, `EDT`);
 *   none: the zone given (the agent's `TZ`, else the machine's);
 * - a relative delay: `in 2h 13m`, `in 3m 4s`.
 *
 * A time with no date is the occurrence nearest ahead of `now`, unless it is at
 * most PAST_GRACE_MS behind: a reset printed to the minute (or the hour) is partly
 * past, or just past, when it is read — it is that instant, not tomorrow's. A date
 * with no year is the nearest such date (this year, last or next). A wall time that
 * does not exist (a DST gap) is moved forward by the gap; one that exists twice (a
 * DST overlap) is its first occurrence.
 */

export const PAST_GRACE_MS = 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

const MONTHS = [
  "jan",
  "feb",
  "mar",
  "apr",
  "may",
  "jun",
  "jul",
  "aug",
  "sep",
  "oct",
  "nov",
  "dec",
];

/** US zone abbreviations as en-US `timeZoneName: "short"` prints them: offset in minutes. */
const ABBREVIATIONS: Readonly<Record<string, number>> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
};

/** A zone: an IANA name, or a fixed offset from UTC in minutes. */
type Zone = { readonly name: string } | { readonly offset: number };

/** The machine's zone (Intl), "UTC" when it names none. */
export function machineTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** Whether Intl knows this IANA zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The instant the text names, read at `now` in `timeZone` (the agent's TZ; null:
 * the machine's), or null when it names none.
 */
export function parseResetTime(text: string, now: number, timeZone: string | null): number | null {
  const relative = parseRelative(text);
  if (relative !== null) return now + relative;
  let rest = text;
  let zone: Zone | null = null;
  const paren = /\(([A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+|UTC|GMT)\)/.exec(rest);
  if (paren && isTimeZone(paren[1]!)) {
    zone = { name: paren[1]! };
    rest = rest.replace(paren[0], " ");
  }
  if (zone === null) {
    const off = /\b(?:GMT|UTC)\s*([+-−])\s*(\d{1,2})(?::?(\d{2}))?\b/.exec(rest);
    if (off) {
      const sign = off[1] === "+" ? 1 : -1;
      zone = { offset: sign * (Number(off[2]) * 60 + Number(off[3] ?? 0)) };
      rest = rest.replace(off[0], " ");
    }
  }
  if (zone === null) {
    const abbr = /\b(UTC|GMT|[ECMP][SD]T|AK[SD]T|HST)\b/.exec(rest);
    if (abbr) {
      zone = { offset: ABBREVIATIONS[abbr[1]!]! };
      rest = rest.replace(abbr[0], " ");
    }
  }
  if (zone === null) {
    const tz = timeZone && isTimeZone(timeZone) ? timeZone : machineTimeZone();
    zone = { name: tz };
  }
  const time = parseClock(rest);
  if (time === null) return null;
  const date = parseDate(rest.slice(0, time.index) + " " + rest.slice(time.end));
  const today = wallOf(now, zone);
  if (date !== null) {
    const years = date.year !== null ? [date.year] : [today.year - 1, today.year, today.year + 1];
    let best: number | null = null;
    for (const year of years) {
      const t = toEpoch({ year, month: date.month, day: date.day, ...time }, zone);
      if (best === null || Math.abs(t - now) < Math.abs(best - now)) best = t;
    }
    return best;
  }
  // No date: today's, yesterday's or tomorrow's — the first not more than the grace behind.
  for (const shift of [-1, 0, 1, 2]) {
    const d = new Date(Date.UTC(today.year, today.month - 1, today.day + shift));
    const t = toEpoch({
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: time.hour,
      minute: time.minute,
    }, zone);
    if (t >= now - PAST_GRACE_MS) return t;
  }
  return null;
}

/** `in 2h 13m`, `in 3m 4s`, `in 45 minutes`: ms, or null. */
function parseRelative(text: string): number | null {
  const m = /\bin\s+((?:\d+\s*(?:d|h|m|s|days?|hours?|hrs?|minutes?|mins?|seconds?|secs?)\b\s*)+)/i
    .exec(text);
  if (!m) return null;
  let ms = 0;
  for (const part of m[1]!.matchAll(/(\d+)\s*([a-z]+)/gi)) {
    const n = Number(part[1]);
    const unit = part[2]!.toLowerCase();
    ms += unit.startsWith("d")
      ? n * DAY_MS
      : unit.startsWith("h")
      ? n * 3_600_000
      : unit.startsWith("m")
      ? n * 60_000
      : n * 1000;
  }
  return ms;
}

interface Clock {
  readonly hour: number;
  readonly minute: number;
  readonly index: number;
  readonly end: number;
}

/** `1am`, `2:34pm`, `10:05 AM`, `14:05`, `10 a.m.`. */
function parseClock(text: string): Clock | null {
  const ampm = /\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s*m\b\.?/i.exec(text);
  if (ampm) {
    let hour = Number(ampm[1]);
    const minute = Number(ampm[2] ?? 0);
    if (hour < 1 || hour > 12 || minute > 59) return null;
    const pm = ampm[3]!.toLowerCase() === "p";
    hour = hour % 12 + (pm ? 12 : 0);
    return { hour, minute, index: ampm.index, end: ampm.index + ampm[0].length };
  }
  const h24 = /\b([01]?\d|2[0-3]):([0-5]\d)\b/.exec(text);
  if (h24) {
    return {
      hour: Number(h24[1]),
      minute: Number(h24[2]),
      index: h24.index,
      end: h24.index + h24[0].length,
    };
  }
  return null;
}

/** `Dec 5`, `December 5`, `5 Dec`, `Dec 5, 2026`: month and day (and year), or null. */
function parseDate(
  text: string,
): { readonly year: number | null; readonly month: number; readonly day: number } | null {
  const month = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?";
  const md = new RegExp(`\\b${month}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?`, "i")
    .exec(text);
  const dm = md
    ? null
    : new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${month}(?:,?\\s+(\\d{4}))?`, "i")
      .exec(text);
  const m = md
    ? { mon: md[1]!, day: md[2]!, year: md[3] }
    : dm
    ? { mon: dm[2]!, day: dm[1]!, year: dm[3] }
    : null;
  if (m === null) return null;
  const day = Number(m.day);
  if (day < 1 || day > 31) return null;
  return {
    year: m.year ? Number(m.year) : null,
    month: MONTHS.indexOf(m.mon.toLowerCase()) + 1,
    day,
  };
}

interface Wall {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock at `t` in `zone`. */
export function wallOf(t: number, zone: Zone): Wall & { readonly second: number } {
  if ("offset" in zone) {
    const d = new Date(t + zone.offset * 60_000);
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
    };
  }
  let f = formats.get(zone.name);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone.name,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formats.set(zone.name, f);
  }
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(t))) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour! % 24,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** The offset (ms) of `zone` from UTC at instant `t`. */
function offsetAt(t: number, zone: Zone): number {
  if ("offset" in zone) return zone.offset * 60_000;
  const w = wallOf(t, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(t / 1000) * 1000;
}

/** The instant a wall time names in `zone` (gap: moved forward; overlap: the first). */
function toEpoch(w: Wall, zone: Zone): number {
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  const before = offsetAt(asUtc - DAY_MS, zone);
  const after = offsetAt(asUtc + DAY_MS, zone);
  const candidates = [asUtc - before, asUtc - after].filter((t) => t + offsetAt(t, zone) === asUtc);
  if (candidates.length > 0) return Math.min(...candidates);
  return asUtc - before; // in a gap: the offset before it, which lands after the gap
}

/** `03:00 (2h13m)`: a reset for the list, in the viewer's zone (null: the machine's). */
export function formatReset(resetsAt: number, now: number, timeZone: string | null = null): string {
  const zone = { name: timeZone && isTimeZone(timeZone) ? timeZone : machineTimeZone() };
  const w = wallOf(resetsAt, zone);
  const n = wallOf(now, zone);
  const hm = `${pad(w.hour)}:${pad(w.minute)}`;
  const sameDay = w.year === n.year && w.month === n.month && w.day === n.day;
  const when = sameDay ? hm : `${MONTH_NAMES[w.month - 1]} ${w.day} ${hm}`;
  return `${when} (${formatDelay(resetsAt - now)})`;
}

const MONTH_NAMES = MONTHS.map((m) => m[0]!.toUpperCase() + m.slice(1));

/** `2h13m`, `4m`, `35s`, `2d3h`; `now` when at or past. */
export function formatDelay(ms: number): string {
  if (ms <= 0) return "now";
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.ceil(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h${pad(m % 60)}m`;
  return `${Math.floor(h / 24)}d${h % 24}h`;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

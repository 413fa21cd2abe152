import { UserError } from "./diagnostic.js";

/**
 * A length of time in milliseconds, branded so a bare number is not mistaken for one.
 *
 * @example
 * const t: Duration = minutes(75);
 * Duration.parse("1h30m") === minutes(90); // true
 * Duration.format(seconds(192)); // "3m12s"
 */
export type Duration = number & { readonly __brand: "Duration" };

function make(ms: number, what: string): Duration {
  if (!Number.isFinite(ms) || ms < 0) throw new UserError(`${what} must be a finite, non-negative number of time units (got ${ms})`);
  return ms as Duration;
}

/** `n` milliseconds. @example milliseconds(250) */
export const milliseconds = (n: number): Duration => make(n, "milliseconds(n)");
/** `n` seconds. @example seconds(10) */
export const seconds = (n: number): Duration => make(n * 1000, "seconds(n)");
/** `n` minutes. @example minutes(75) */
export const minutes = (n: number): Duration => make(n * 60_000, "minutes(n)");
/** `n` hours. @example hours(2) */
export const hours = (n: number): Duration => make(n * 3_600_000, "hours(n)");

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000, sec: 1000, secs: 1000, second: 1000, seconds: 1000,
  m: 60_000, min: 60_000, mins: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hr: 3_600_000, hrs: 3_600_000, hour: 3_600_000, hours: 3_600_000,
};

/**
 * Parses `"75min"`, `"30s"`, `"2hours"`, `"1h30m"`, `"1h 30m"`; anything else throws an error naming the text.
 * @example parseDuration("75min") // 4_500_000
 */
export function parseDuration(text: string): Duration {
  const src = text.trim();
  const part = /(\d+(?:\.\d+)?)\s*([a-z]+)\s*/gy;
  let total = 0;
  let pos = 0;
  let parts = 0;
  for (let m = part.exec(src); m; m = part.exec(src)) {
    const unit = UNIT_MS[m[2]!];
    if (unit === undefined) break;
    total += Number(m[1]) * unit;
    pos = part.lastIndex;
    parts++;
  }
  if (parts === 0 || pos !== src.length) {
    throw new UserError(
      `invalid duration "${text}": write a number and a unit (s, sec, second(s), m, min, minute(s), h, hr, hour(s)), e.g. "75min", "30s" or "1h30m"`,
    );
  }
  return total as Duration;
}

/**
 * Formats a duration the way Cairn prints them: `"450ms"`, `"12s"`, `"3m12s"`, `"75m0s"`, `"2h5m0s"`; with
 * `{ short: true }` zero units are dropped (`"75m"`, `"2h"`).
 */
export function formatDuration(d: number, opts: { short?: boolean } = {}): string {
  if (d < 1000) return `${Math.round(d)}ms`;
  const total = Math.round(d / 1000);
  // Below two hours minutes read better than hours ("75m0s", as ACM's timeout is usually quoted).
  const h = total >= 7200 ? Math.floor(total / 3600) : 0;
  const m = Math.floor((total - h * 3600) / 60);
  const s = total % 60;
  if (opts.short) {
    if (h === 0 && m === 0) return `${s}s`;
    const parts = [h ? `${h}h` : "", m ? `${m}m` : "", s ? `${s}s` : ""];
    return parts.join("");
  }
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

/** Namespace-style helpers: `Duration.parse`, `Duration.format`. */
export const Duration = {
  /** {@link parseDuration}: `Duration.parse("75min")`. */
  parse: parseDuration,
  /** {@link formatDuration}: `Duration.format(seconds(192))` is `"3m12s"`. */
  format: formatDuration,
} as const;

/** The last time asked for and its text: a run writes many records and events within one millisecond. */
const last = { at: Number.NaN, text: "" };

/**
 * A time (ms since the epoch) as ISO text, made once per distinct millisecond: a fast run writes many
 * journal records and `--json` events within each millisecond, and each would make a Date and its text.
 *
 * @example isoTime(0) // "1970-01-01T00:00:00.000Z"
 */
export function isoTime(ms: number): string {
  if (ms !== last.at) {
    last.at = ms;
    last.text = new Date(ms).toISOString();
  }
  return last.text;
}

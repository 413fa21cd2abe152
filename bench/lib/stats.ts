// Small summaries of repeated measurements: the median is the figure to compare, the min is the
// least-disturbed run on a machine shared with other work.

/** Median and min of a series, rounded; `runs` keeps every sample so noise is visible. */
export interface Summary {
  median: number;
  min: number;
  runs: number[];
}

/**
 * Summarises samples (rounded to `digits` decimals).
 * @example summarize([3, 1, 2]); // { median: 2, min: 1, runs: [3, 1, 2] }
 */
export function summarize(samples: number[], digits = 0): Summary {
  const round = (x: number) => Number(x.toFixed(digits));
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median: round(median), min: round(sorted[0] ?? NaN), runs: samples.map(round) };
}

/**
 * Bytes as binary megabytes (MiB), rounded to a whole number: the unit of every RSS figure here.
 * @example mb(1024 * 1024 * 300); // 300
 */
export function mb(bytes: number): number {
  return Math.round(bytes / 1024 / 1024);
}

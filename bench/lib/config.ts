// The bench's knobs, read once from the environment and the command line.
import { fileURLToPath } from "node:url";
import { PINS } from "../../scripts/node-runtimes.js";

/** The repository root (bench/ lives in it). */
export const REPO = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/** Row groups the driver can run (`BENCH_ONLY=cli,import` runs a subset). */
export const GROUPS = ["cli", "runtimes", "import", "engine", "waits", "cloudcontrol", "change", "acm", "latency", "graph"] as const;
/** One row group. */
export type Group = (typeof GROUPS)[number];

/** Ways of starting a program the runtimes rows compare: `node infra.ts`, `npx cairn infra.ts`, `npx tsx infra.ts`. */
export const ENTRIES = ["node", "cairn", "tsx"] as const;
/** One of {@link ENTRIES}. */
export type Entry = (typeof ENTRIES)[number];
/** Runtimes the runtimes rows know: the machine's Node 20 and the pinned tested ones (scripts/node-versions.json). */
export const KNOWN_RUNTIMES: readonly string[] = ["20", ...PINS.tested];

/** Everything a bench run is told from outside. */
export interface BenchConfig {
  /** Resource counts for the `up` rows (`BENCH_SIZES`, default 1,000 and 10,000; `BENCH_BIG=1` adds 100,000). */
  sizes: number[];
  /** Resources the no-op preview row re-plans: 10,000 when that size is run, else the largest size. */
  previewN: number;
  /** Stack size of the change rows (`BENCH_CHANGE_N`, default 10,000; `BENCH_BIG=1` makes it 100,000). */
  changeN: number;
  /** Repetitions of every timed run (`BENCH_RUNS`, default 3). */
  runs: number;
  /** Concurrent waits for the waits row (`BENCH_WAITS`, default 1,000). */
  waits: number;
  groups: Group[];
  /** Node runtimes of the runtimes rows (`BENCH_RUNTIMES`, default 20,22,24: the machine's 20 and the pinned ones). */
  runtimes: string[];
  /** Entry points of the runtimes rows (`BENCH_ENTRIES`, default node,cairn,tsx; node only where the runtime strips types). */
  entries: Entry[];
  /** Append this run to bench/RESULTS.md (`--record` or `BENCH_RECORD=1`). */
  record: boolean;
}

/**
 * Reads the knobs; a malformed one is an error that names it.
 * @example const config = readConfig(process.argv.slice(2), process.env);
 */
export function readConfig(argv: string[], env: NodeJS.ProcessEnv): BenchConfig {
  const sizes = env.BENCH_SIZES ? list("BENCH_SIZES", env.BENCH_SIZES) : env.BENCH_BIG === "1" ? [1_000, 10_000, 100_000] : [1_000, 10_000];
  const groups = (env.BENCH_ONLY ?? GROUPS.join(",")).split(",").map((g) => g.trim());
  const unknown = groups.filter((g) => !(GROUPS as readonly string[]).includes(g));
  if (unknown.length) throw new Error(`BENCH_ONLY names unknown row groups (${unknown.join(", ")}): use some of ${GROUPS.join(", ")}.`);
  const sorted = [...new Set(sizes)].sort((a, b) => a - b);
  const runtimes = names("BENCH_RUNTIMES", env.BENCH_RUNTIMES, KNOWN_RUNTIMES);
  const entries = names("BENCH_ENTRIES", env.BENCH_ENTRIES, ENTRIES);
  return {
    sizes: sorted,
    previewN: sorted.includes(10_000) ? 10_000 : sorted.at(-1)!,
    changeN: positive("BENCH_CHANGE_N", (env.BENCH_CHANGE_N ?? (env.BENCH_BIG === "1" ? "100000" : "10000")).replace(/_/g, "")),
    runs: positive("BENCH_RUNS", env.BENCH_RUNS ?? "3"),
    waits: positive("BENCH_WAITS", env.BENCH_WAITS ?? "1000"),
    groups: groups as Group[],
    runtimes,
    entries,
    record: argv.includes("--record") || env.BENCH_RECORD === "1",
  };
}

/** A comma-separated subset of `known` (all of them when unset), in the order given. */
function names<T extends string>(name: string, text: string | undefined, known: readonly T[]): T[] {
  const given = (text ?? known.join(",")).split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = given.filter((g) => !(known as readonly string[]).includes(g));
  if (unknown.length || given.length === 0) throw new Error(`${name}=${text ?? ""} names ${unknown.length ? `unknown values (${unknown.join(", ")})` : "nothing"}: use some of ${known.join(", ")}.`);
  return [...new Set(given)] as T[];
}

function list(name: string, text: string): number[] {
  const values = text.split(",").map((s) => positive(name, s.trim().replace(/_/g, "")));
  if (values.length === 0) throw new Error(`${name} is empty: give resource counts such as 1000,10000.`);
  return values;
}

function positive(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name}=${text} is not a positive whole number.`);
  return n;
}

// The shape of one `npm run bench` report (bench/run.ts makes it; lib/record.ts appends it to RESULTS.md).
import type { BenchConfig } from "./config.js";
import type { GitInfo } from "./git.js";
import type { CliRows } from "../rows/cli.js";
import type { EngineRow } from "../rows/engine.js";
import type { ImportRow } from "../rows/import.js";
import type { RuntimeEntryRow } from "../rows/runtimes.js";
import type { WaitsRow } from "../rows/waits.js";
import type { CloudControlRow } from "../rows/cloudcontrol.js";
import type { ChangeRows } from "../rows/change.js";
import type { AcmRow } from "../rows/acm.js";
import type { LatencyRow } from "../rows/latency.js";
import type { GraphRow } from "../rows/graph.js";

/** The whole report: where and what was measured, then each row group run (absent when not run). */
export interface BenchReport {
  date: string;
  nproc: number;
  /** One-minute load average when the run started: other work on a shared machine skews every figure. */
  loadAverage: number;
  node: string;
  platform: string;
  git: GitInfo;
  config: Omit<BenchConfig, "record">;
  cli?: CliRows;
  /** The same program on each Node runtime through each entry point (`node`, `npx cairn`, `npx tsx`). */
  runtimes?: RuntimeEntryRow[];
  import?: ImportRow;
  engine?: EngineRow[];
  waits?: WaitsRow;
  cloudcontrol?: CloudControlRow;
  /** A 0.1%, 1% and 10% change of a recorded stack against its fresh `up`. */
  change?: ChangeRows;
  /** AWS calls of the 50-certificate flow (aws-sdk-client-mock) against their floor. */
  acm?: AcmRow;
  /** 300 Cloud Control creates of 2–10 s in a three-level tree: wall time against the critical-path floor. */
  latency?: LatencyRow;
  /** A plan's picture (DOT, Mermaid, SVG) and page (`preview --html`): time and size, per size. */
  graph?: GraphRow[];
}

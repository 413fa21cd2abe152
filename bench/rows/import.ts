// `import "cairn-iac"` cold (a fresh node process) from the built dist/, as a user's project resolves it:
// the whole process minus a `node -e 0` baseline, and the import alone timed inside the child.
import { measure } from "../lib/measure.js";
import { createProject } from "../lib/project.js";
import { summarize, type Summary } from "../lib/stats.js";
import type { BenchConfig } from "../lib/config.js";

/** The import row: process wall clocks, their difference (medians), and the in-process import time. */
export interface ImportRow {
  command: string;
  wallMs: Summary;
  baselineWallMs: Summary;
  /** median(wallMs) − median(baselineWallMs): what importing adds to a process. */
  importMs: number;
  /** performance.now() around `await import("cairn-iac")` inside the child. */
  inProcessMs: Summary;
  target: { importMs: number };
}

const IMPORT = 'const t = performance.now(); await import("cairn-iac"); process.stdout.write(String(performance.now() - t));';

/**
 * Runs the import and the baseline `config.runs` times each, alternating.
 * @example const row = await importRow(readConfig([], process.env));
 */
export async function importRow(config: BenchConfig): Promise<ImportRow> {
  const project = await createProject();
  const wall: number[] = [];
  const base: number[] = [];
  const inside: number[] = [];
  try {
    for (let run = 1; run <= config.runs; run++) {
      const b = await measure({ command: process.execPath, args: ["-e", "0"], cwd: project.dir });
      const m = await measure({ command: process.execPath, args: ["--input-type=module", "-e", IMPORT], cwd: project.dir, keepStdout: true });
      base.push(b.wallMs);
      wall.push(m.wallMs);
      inside.push(Number(m.stdout));
      process.stderr.write(`  import run ${run}/${config.runs}: ${Math.round(m.wallMs)} ms (baseline ${Math.round(b.wallMs)} ms, inside ${Math.round(Number(m.stdout))} ms)\n`);
    }
  } finally {
    await project.remove();
  }
  const wallMs = summarize(wall);
  const baselineWallMs = summarize(base);
  return {
    command: `node --input-type=module -e 'await import("cairn-iac")' minus node -e 0`,
    wallMs,
    baselineWallMs,
    importMs: Math.round(wallMs.median - baselineWallMs.median),
    inProcessMs: summarize(inside),
    target: { importMs: 100 },
  };
}

// Whole-process rows for each Node runtime and each way of starting a program, side by side: `node
// infra.ts` (Node's own type stripping, 22.18+), the cairn bin (`npx cairn infra.ts`: stripping where the
// runtime has it, tsx's loader in-process on Node 20) and `npx tsx infra.ts` (a second node process with
// tsx's loader). Same project, program and state as the cli rows; each runtime from scripts/node-versions.json.
import { runtimeNode } from "../../scripts/node-runtimes.js";
import { REPO, type Entry } from "../lib/config.js";
import { measure } from "../lib/measure.js";
import { createProject, type Project } from "../lib/project.js";
import { summarize, type Summary } from "../lib/stats.js";
import type { BenchConfig } from "../lib/config.js";
import { join } from "node:path";
import { execFileSync } from "node:child_process";

/** How a user types each entry point, for the report. */
export const ENTRY_COMMANDS: Record<Entry, string> = { node: "node infra.ts", cairn: "npx cairn infra.ts", tsx: "npx tsx infra.ts" };

/** One work item's figures for one runtime and entry point. */
export interface Cell {
  wallMs: Summary;
  peakRssMb: Summary;
}

/** What one runtime and entry point measured: the empty program, then per size a fresh up and a no-op preview. */
export interface RuntimeEntryRow {
  runtime: string;
  version: string;
  entry: Entry;
  command: string;
  emptyProgram: Cell;
  sizes: { n: number; up: Cell; noopPreview: Cell }[];
}

/** The targets of issue 28, for Node 22 with type stripping (`node infra.ts`). */
export const RUNTIME_TARGETS = { emptyProgramMs: 300, up10kMs: 900 } as const;

interface Sample { wallMs: number; rssMb: number }

/** Node 22.18+ and 24 strip types; on others `node infra.ts` cannot run a TypeScript program. */
function strips(node: string): boolean {
  return execFileSync(node, ["-p", "Boolean(process.features.typescript)"], { encoding: "utf8" }).trim() === "true";
}

/**
 * Runs every runtime × entry point × work `config.runs` times, interleaved (so a slow moment of a shared
 * machine spreads over every cell), after one unmeasured warm-up of each pair.
 * @example const rows = await runtimeRows(readConfig([], process.env));
 */
export async function runtimeRows(config: BenchConfig): Promise<RuntimeEntryRow[]> {
  const pairs = config.runtimes.flatMap((runtime) => {
    const node = runtimeNode(runtime);
    const version = execFileSync(node, ["-v"], { encoding: "utf8" }).trim();
    const entries = config.entries.filter((e) => e !== "node" || strips(node));
    return entries.map((entry) => ({ runtime, version, node, entry }));
  });
  const project = await createProject();
  const samples = new Map<string, Sample[]>();
  const add = (key: string, s: Sample) => samples.set(key, [...(samples.get(key) ?? []), s]);
  try {
    for (const p of pairs) await start(project, p.node, p.entry, 0, ["up", "--yes"], `${p.version} ${p.entry}: warm-up (not measured)`);
    for (let run = 1; run <= config.runs; run++) {
      for (const p of pairs) {
        const key = `${p.runtime} ${p.entry}`;
        const label = (what: string) => `run ${run}/${config.runs}: ${p.version} ${ENTRY_COMMANDS[p.entry]} ${what}`;
        for (const n of [0, ...config.sizes]) {
          await project.resetState();
          add(`${key} up ${n}`, await start(project, p.node, p.entry, n, ["up", "--yes"], label(`up ${n}`)));
          if (n > 0) add(`${key} preview ${n}`, await start(project, p.node, p.entry, n, ["preview", "--expect-no-changes"], label(`no-op preview ${n}`)));
        }
      }
    }
  } finally {
    await project.remove();
  }
  const cell = (key: string): Cell => {
    const s = samples.get(key)!;
    return { wallMs: summarize(s.map((x) => x.wallMs)), peakRssMb: summarize(s.map((x) => x.rssMb)) };
  };
  return pairs.map((p) => ({
    runtime: p.runtime,
    version: p.version,
    entry: p.entry,
    command: ENTRY_COMMANDS[p.entry],
    emptyProgram: cell(`${p.runtime} ${p.entry} up 0`),
    sizes: config.sizes.map((n) => ({ n, up: cell(`${p.runtime} ${p.entry} up ${n}`), noopPreview: cell(`${p.runtime} ${p.entry} preview ${n}`) })),
  }));
}

/** Starts the program as the entry point does, on `node`: what npx would run, without npx's own start-up. */
async function start(project: Project, node: string, entry: Entry, n: number, args: string[], label: string): Promise<Sample> {
  const argv = { node: ["infra.ts"], cairn: [project.bin, "infra.ts"], tsx: [join(REPO, "node_modules", "tsx", "dist", "cli.mjs"), "infra.ts"] }[entry];
  const m = await measure({ command: node, args: [...argv, ...args], cwd: project.dir, env: project.env(n), probeRss: true });
  const sample = { wallMs: m.wallMs, rssMb: m.peakRssKb / 1024 };
  process.stderr.write(`  runtimes ${label}: ${Math.round(sample.wallMs)} ms, ${Math.round(sample.rssMb)} MB\n`);
  return sample;
}

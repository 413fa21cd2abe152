// Runs one child process as a user would and measures it from outside: wall clock around the spawn, and
// the peak RSS of its largest node process through the preload probe (probe/rss.mjs).
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const PROBE = pathToFileURL(fileURLToPath(new URL("../probe/rss.mjs", import.meta.url))).href;
const TAIL = 4096;

/** What to run: a command, its folder, extra environment, and whether to preload the RSS probe. */
export interface RunSpec {
  command: string;
  args: string[];
  cwd: string;
  env?: Record<string, string>;
  probeRss?: boolean;
  /** Keep all of stdout (children that print JSON); otherwise only its last few KB. */
  keepStdout?: boolean;
  timeoutMs?: number;
}

/** One measured run: wall clock, peak RSS (KB, of the largest node process; 0 without the probe), output. */
export interface Measured {
  wallMs: number;
  peakRssKb: number;
  stdout: string;
  stderrTail: string;
}

/**
 * The environment a bench child gets: ours without NODE_OPTIONS and CAIRN_* (so the caller's shell
 * cannot change what is measured), plus `extra`.
 * @example childEnv({ BENCH_N: "1000" });
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (k !== "NODE_OPTIONS" && !k.startsWith("CAIRN_")) env[k] = v;
  return { ...env, ...extra };
}

/**
 * Spawns `spec`, waits for it, and fails with its output if it exits non-zero.
 * @example const m = await measure({ command: "node", args: ["-e", "0"], cwd: "." });
 */
export async function measure(spec: RunSpec): Promise<Measured> {
  const dir = spec.probeRss ? await mkdtemp(join(tmpdir(), "cairn-bench-rss-")) : undefined;
  const rssFile = dir ? join(dir, "rss") : undefined;
  const env = childEnv({ ...spec.env, ...(rssFile ? { NODE_OPTIONS: `--import ${PROBE}`, BENCH_RSS_FILE: rssFile } : {}) });
  try {
    const t0 = performance.now();
    const { code, stdout, stderrTail } = await run(spec, env);
    const wallMs = performance.now() - t0;
    if (code !== 0) throw new Error(`${spec.command} ${spec.args.join(" ")} exited with ${code} in ${spec.cwd}:\n${stderrTail}\n${stdout.slice(-TAIL)}`);
    return { wallMs, peakRssKb: rssFile ? await largestRss(rssFile) : 0, stdout, stderrTail };
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

function run(spec: RunSpec, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderrTail: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let tail = "";
    let err = "";
    child.stdout.on("data", (b: Buffer) => (spec.keepStdout ? out.push(b) : (tail = (tail + b.toString()).slice(-TAIL))));
    child.stderr.on("data", (b: Buffer) => (err = (err + b.toString()).slice(-TAIL)));
    const timer = setTimeout(() => child.kill("SIGKILL"), spec.timeoutMs ?? 15 * 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: spec.keepStdout ? Buffer.concat(out).toString() : tail, stderrTail: err });
    });
  });
}

async function largestRss(file: string): Promise<number> {
  const text = await readFile(file, "utf8").catch(() => "");
  const kbs = text.split("\n").filter(Boolean).map((line) => Number(line.split(" ")[1]));
  if (kbs.length === 0) throw new Error(`the RSS probe wrote nothing to ${file}: was NODE_OPTIONS=--import honoured?`);
  return Math.max(...kbs);
}

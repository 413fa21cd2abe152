// What the command line adds to an `up`: the bench program (bench/programs/infra.ts) is applied once in
// process with its plan and events recorded, then they are shown as the CLI shows them — the plan, then
// every event through the stack's redaction, a reporter and the line writer, to /dev/null — and only that
// is measured: CPU time (all threads: what compiling the display's code costs counts too), main-thread
// time, and (PROBE_HEAP=1) bytes allocated, freed objects included. The display's code runs cold, as in a
// real run. CPU time is not what other processes on the machine take, so it is steadier than a wall clock.
// It runs from src/ (the CLI's parts are not exports of the built package), program and engine included, so
// the plan's unknowns are the CLI's own: run it with the root tsconfig, not bench/probe/tsconfig.json.
//   BENCH_N=10000 PROBE_MODE=plain|json|tty npx tsx bench/probe/cli-display.ts
import { Session } from "node:inspector/promises";
import { mkdtemp, rm } from "node:fs/promises";
import { openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Subject } from "rxjs";
import prog from "../programs/infra.js";
import type { EngineEvent } from "../../src/apply/events.js";
import type { Plan } from "../../src/plan/plan.js";
import { SecretRegistry } from "../../src/apply/secret-registry.js";
import { colors } from "../../src/core/colors.js";
import { lineWriter } from "../../src/cli/line-writer.js";
import { afterLines } from "../../src/cli/io.js";
import { planPieces } from "../../src/cli/render/plan.js";
import { planToJson } from "../../src/cli/json/plan.js";
import { JsonEmitter } from "../../src/cli/json/events.js";
import { JsonReporter } from "../../src/cli/progress/json.js";
import { LiveReporter } from "../../src/cli/progress/live.js";
import { PlainReporter } from "../../src/cli/progress/plain.js";
import type { Reporter } from "../../src/cli/progress/reporter.js";
import { terminalRegion } from "../../src/cli/progress/terminal.js";

const MODE = process.env.PROBE_MODE ?? "plain";
if (!["plain", "json", "tty"].includes(MODE)) throw new Error(`PROBE_MODE is plain, json or tty, not ${MODE}`);

/** An `up` of the bench program, in a state folder of its own: its plan and its events. */
async function record(): Promise<{ plan: Plan; events: EngineEvent[] }> {
  const dir = await mkdtemp(join(tmpdir(), "cairn-cli-display-"));
  try {
    const stack = prog.stack({ stateDir: dir });
    const events: EngineEvent[] = [];
    let plan: Plan | undefined;
    stack.events.subscribe((e) => events.push(e));
    await stack.up({
      confirm: async (p) => {
        plan = p;
        return true;
      },
    });
    if (!plan) throw new Error("the up made no plan");
    return { plan, events };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** /dev/null as the CLI's stdout: a terminal of 120×40 for `tty`, else a file. */
function devNull(): NodeJS.WriteStream {
  const fd = openSync("/dev/null", "w");
  const write = (s: string) => {
    writeSync(fd, s);
    return true;
  };
  const stream = { isTTY: MODE === "tty", columns: 120, rows: 40, write, on: () => stream, once: () => stream, removeListener: () => stream };
  return stream as unknown as NodeJS.WriteStream;
}

/** Shows the plan and the events as `up` does in this mode (context.ts's wiring, without a stack). */
function show(plan: Plan, events: readonly EngineEvent[]): void {
  const stream = devNull();
  const out = lineWriter(stream);
  const secrets = new SecretRegistry();
  const sink = { out: (t: string) => out.line(secrets.redact(t)), err: (t: string) => out.line(secrets.redact(t)) };
  const c = colors(MODE === "tty");
  const json = MODE === "json" ? new JsonEmitter(sink.out) : undefined;
  const reporter: Reporter = json
    ? new JsonReporter(json, sink.err, "x")
    : MODE === "tty"
      ? new LiveReporter(sink, c, "x", afterLines(terminalRegion(stream), out), () => ({ columns: 120, rows: 40 }))
      : new PlainReporter(sink, c, "x");
  if (json) json.emit({ type: "plan", ...planToJson(plan) });
  else for (const piece of planPieces(plan, { colors: c, diff: false })) reporter.print(piece);
  // As the stack delivers them: redacted, through an rxjs Subject.
  const subject = new Subject<EngineEvent>();
  subject.subscribe((e) => reporter.event(e));
  for (const e of events) subject.next(secrets.redactEvent(e));
  reporter.close();
  out.flush();
}

const { plan, events } = await record();
const session = new Session();
session.connect();
const heap = process.env.PROBE_HEAP === "1";
if (heap) {
  await session.post("HeapProfiler.enable");
  await session.post("HeapProfiler.startSampling", { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
}
const cpu = process.cpuUsage();
const start = performance.now();
show(plan, events);
const used = process.cpuUsage(cpu);
const wall = performance.now() - start;
let allocated = "";
if (heap) {
  const { profile } = (await session.post("HeapProfiler.stopSampling")) as unknown as { profile: { head: SamplingNode } };
  allocated = `, allocated ${(total(profile.head) / 1e6).toFixed(1)} MB`;
}
console.log(`${MODE}: ${plan.steps.length} steps, ${events.length} events: CPU ${((used.user + used.system) / 1000).toFixed(0)} ms, main thread ${wall.toFixed(0)} ms${allocated}`);
session.disconnect();
// The LiveReporter's spinner and the line writer's exit hook must not keep a probe of many runs waiting.
process.exit(0);

interface SamplingNode {
  selfSize: number;
  children: SamplingNode[];
}

function total(n: SamplingNode): number {
  return n.children.reduce((sum, c) => sum + total(c), n.selfSize);
}

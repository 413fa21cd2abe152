import { evaluateProgram } from "../program/evaluate.js";
import type { Stack, UpResult } from "./stack.js";
import { hasChanges, type Plan } from "../plan/plan.js";
import { CairnError } from "./errors.js";
import { thrownMessage } from "../core/thrown.js";
import { STACK_REFERENCE_TYPE } from "../program/stack-reference.js";

/** What {@link runStacks} does to every stack. */
export type StackCommand = "preview" | "up" | "destroy";

/** How {@link runStacks} runs. */
export interface RunStacksOptions {
  /** Asked before each stack's changes are applied (up, destroy); default: yes. */
  confirm?: (stack: Stack, plan: Plan) => Promise<boolean>;
  /** destroy: go on even where a stack outside the list still reads one being destroyed. */
  force?: boolean;
}

/** What became of one stack. */
export interface StackOutcome {
  stack: Stack;
  /** `skipped`: a stack it reads (up) or that reads it (destroy) failed or was skipped first. */
  status: "done" | "failed" | "skipped";
  /** The plan (preview), or the result (up, destroy). */
  plan?: Plan;
  result?: UpResult;
  /** Why it failed or was skipped. */
  error?: string;
  /** What the user should know about this stack's plan (e.g. it was made against outputs about to change). */
  notes: string[];
}

/** `network/prod`. */
const nameOf = (s: Stack) => `${s.program.name}/${s.name}`;

/**
 * The stacks in dependency order: each after the stacks of the list it reads with `stackOutputs` (found by
 * evaluating each program; nothing is planned). Otherwise the given order is kept. A cycle is an error
 * naming it.
 *
 * @example await stackOrder([app, network]) // [network, app]
 */
export async function stackOrder(stacks: readonly Stack[]): Promise<{ order: Stack[]; reads: Map<Stack, Stack[]> }> {
  const byName = new Map(stacks.map((s) => [nameOf(s), s]));
  const reads = new Map<Stack, Stack[]>();
  for (const s of stacks) {
    const ev = await evaluateProgram(s.program, { stack: s.name, config: await s.config() });
    const upstream = ev.nodes.flatMap((n) => {
      if (n.kind !== "custom" || n.type !== STACK_REFERENCE_TYPE) return [];
      const t = byName.get(`${String(n.inputs.project)}/${String(n.inputs.stack)}`);
      return t && t !== s ? [t] : [];
    });
    reads.set(s, upstream);
  }
  const order: Stack[] = [];
  const state = new Map<Stack, "visiting" | "done">();
  const visit = (s: Stack, path: Stack[]): void => {
    if (state.get(s) === "done") return;
    if (state.get(s) === "visiting") {
      const cycle = [...path.slice(path.indexOf(s)), s].map(nameOf).join(" → ");
      throw new CairnError(`These stacks read each other's outputs in a cycle: ${cycle}. No order can run them; make one of them stop reading the other.`);
    }
    state.set(s, "visiting");
    for (const t of reads.get(s) ?? []) visit(t, [...path, s]);
    state.set(s, "done");
    order.push(s);
  };
  for (const s of stacks) visit(s, []);
  return { order, reads };
}

/**
 * Runs `command` on several stacks in one process, in dependency order (destroy in reverse): e.g. network
 * before the app that reads its outputs. A stack whose upstream failed is skipped, not run against stale
 * outputs. `preview` plans each stack against the outputs its upstream stacks' plans leave them with (values those
 * plans make known only when applied are unknown), and a stack whose upstream changes its outputs gets a note.
 *
 * @example
 * const results = await runStacks([app, network], "up");
 * results.map((r) => `${r.stack.name}: ${r.status}`) // ["network: done", "app: done"]
 */
export async function runStacks(stacks: readonly Stack[], command: StackCommand, opts: RunStacksOptions = {}): Promise<StackOutcome[]> {
  const { order, reads } = await stackOrder(stacks);
  const outcomes = new Map<Stack, StackOutcome>();
  const list = command === "destroy" ? [...order].reverse() : order;
  for (const s of list) {
    // up waits for what it reads; destroy waits for its readers (they are destroyed first).
    const before = command === "destroy" ? order.filter((r) => reads.get(r)?.includes(s)) : (reads.get(s) ?? []);
    const blocked = before.filter((b) => outcomes.get(b)?.status !== "done");
    if (command !== "preview" && blocked.length) {
      outcomes.set(s, { stack: s, status: "skipped", error: `skipped: ${blocked.map(nameOf).join(", ")} did not finish`, notes: [] });
      continue;
    }
    const confirm = opts.confirm && ((plan: Plan) => opts.confirm!(s, plan));
    try {
      const outcome: StackOutcome = { stack: s, status: "done", notes: [] };
      if (command === "preview") {
        // Previewed together: this stack reads its upstream stacks' outputs as their plans leave them.
        const upstream = before.flatMap((b) => outcomes.get(b)?.plan ?? []);
        outcome.plan = await s.preview(upstream.length ? { upstream } : {});
        for (const b of before) {
          const p = outcomes.get(b)?.plan;
          if (p?.outputsChanged) outcome.notes.push(`${nameOf(b)}, which this stack reads, changes its outputs in its own plan: this plan reads them as that plan leaves them (values it makes known only when applied show as known after apply).`);
        }
      } else {
        const result = command === "up" ? await s.up(confirm ? { confirm } : {}) : await s.destroy({ ...(confirm ? { confirm } : {}), force: opts.force ?? false });
        outcome.result = result;
        outcome.plan = result.plan;
        // Not confirmed, or a step failed: what depends on it must not run as if it were done.
        if (result.summary ? !result.summary.ok : hasChanges(result.plan)) Object.assign(outcome, { status: "failed", error: result.summary ? "some steps failed" : "not confirmed" });
      }
      outcomes.set(s, outcome);
    } catch (e) {
      outcomes.set(s, { stack: s, status: "failed", error: thrownMessage(e, `stack ${nameOf(s)}`), notes: [] });
    }
  }
  return list.map((s) => outcomes.get(s)!);
}

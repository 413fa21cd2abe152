import { actionKindOf } from "../plan/steps/index.js";
import { nameOf, type Urn } from "../core/urn.js";
import type { ScopedResolver } from "../runtime/values.js";
import { chainLink, waitCycle } from "../plan/stall.js";
import type { Action } from "../plan/actions.js";
import type { ReportContext } from "./reporting.js";
import type { Scheduler } from "./scheduler.js";

/**
 * Every running action waits for a value another action must produce, and none can move: a cycle formed
 * at run time (a value read through `apply` from a resource that itself runs after). Names the chain and
 * fails the actions in it, so the run ends with a clear error instead of hanging.
 */
export function reportStall(running: readonly Action[], scopeOf: (a: Action) => ScopedResolver | undefined, scheduler: Scheduler<Action>, ctx: ReportContext): void {
  const producer = new Map<string, string>(); // URN → id of the running-or-waiting action making its value
  for (const a of scheduler.jobs) if (actionKindOf(a).makesValue) producer.set(a.step.urn, a.id);
  const byId = new Map(scheduler.jobs.map((j) => [j.id, j]));
  // A running action waits for the producer of a value it reads; a waiting one for its unfinished dependencies.
  const next = (id: string): string | undefined => {
    if (scheduler.statusOf(id) === "running") {
      for (const n of scopeOf(byId.get(id)!)?.awaiting ?? []) {
        const p = producer.get(n.urn);
        if (p) return p;
      }
      return undefined;
    }
    return scheduler.depsOf(id).find((d) => scheduler.statusOf(d) === "waiting" || scheduler.statusOf(d) === "running");
  };
  const cycle = waitCycle(running[0]!.id, next);
  const named = (urn: Urn) => chainLink(`"${nameOf(urn)}"`, undefined, ctx.node(urn)?.site);
  const chain = (cycle ?? running.map((a) => a.id)).map((id) => named(byId.get(id)!.step.urn));
  const message =
    `stuck: a dependency cycle formed at run time: ${chain.join(" → ")}. Each needs the next to finish first; ` +
    "the graph could not see it up front because a value is read inside an apply() callback. Break the cycle: pass one of the values another way, or remove the reference.";
  ctx.events.next({ type: "diagnostic", severity: "error", summary: message });
  for (const j of running) scheduler.fail(j.id, new Error(message));
}

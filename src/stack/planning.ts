import { planProgram } from "../plan/planner.js";
import { newPlan, type Plan, type PlanBody } from "../plan/plan.js";
import { decisionLine } from "../plan/steps/index.js";
import type { StackState } from "../state/types.js";
import { afterRefresh, readAll } from "./refresh.js";
import type { RunOptions } from "./options.js";
import { planSecrets } from "./plan-secrets.js";
import { refreshOnlyPlan } from "./special-plans.js";
import { readRunner } from "./op-context.js";
import { providerEnv, type RunContext } from "./run-context.js";
import { planFor, type StackParts } from "./stack-parts.js";
import { planHead } from "./plan-head.js";
import { autoNamingOf } from "./auto-naming.js";

/**
 * Plans the program against `state` (refreshed first with `refresh`; only refreshed with `refreshOnly`);
 * `fingerprinted` when the plan leaves this call (preview), so it can be applied later.
 *
 * @example const plan = await planAgainst(ctx, state, { refresh: true }, idle, true);
 */
export async function planAgainst(ctx: RunContext, state: StackState, opts: RunOptions, idle: AbortSignal, fingerprinted: boolean): Promise<Plan> {
  if (opts.refreshOnly) {
    await ctx.evaluations.declareProviders();
    return refreshOnlyPlan(planFor(ctx), state, await readAll(state, providerEnv(ctx)));
  }
  const found = opts.refresh ? await readAll(state, providerEnv(ctx)) : undefined;
  const { runtime, fingerprint: fp, declarations } = await ctx.evaluations.prepare(opts.upstream);
  const body = await planProgram(
    {
      graph: runtime.graph, programOutputs: runtime.programOutputs, state: found ? afterRefresh(state, found.mutations) : state,
      read: readRunner(ctx),
      providers: ctx.providers, stuck: idle, growth: declarations, autoNames: autoNamingOf(ctx), schemaOf: (type) => ctx.definitions.find(type)?.schema, ...(runtime.applies ? { applies: runtime.applies } : {}),
    },
    opts,
  );
  // Callbacks declared resources while planning: they are in the graph now, and none may be declared after.
  declarations.seal();
  if (runtime.nodeByUrn.size !== runtime.graph.order.length) {
    ctx.evaluations.remember({ nodes: runtime.graph.order.slice(runtime.nodeByUrn.size) }); // the nodes added (appended)
    runtime.nodeByUrn = new Map(runtime.graph.order.map((n) => [n.urn, n]));
  }
  // After planning: the resources callbacks declared while planning are part of what the plan was made from.
  const fingerprint = fingerprinted ? fp() : "";
  return traced(ctx, newPlan(planHead(planFor(ctx), state, "update", found, fingerprint), scrubbed(ctx, body)));
}

/**
 * The plan, its decisions written to the debug trace (when on).
 * @example return traced(parts, destroyPlan(...));
 */
export function traced(parts: StackParts, plan: Plan): Plan {
  if (parts.debug) for (const step of plan.steps) parts.debug(decisionLine(step));
  return plan;
}

/** What planning decided, its secrets remembered and its diagnostics (a provider's check may quote a value) redacted. */
function scrubbed(parts: StackParts, body: PlanBody): PlanBody {
  planSecrets(body, parts.secrets);
  return { ...body, diagnostics: body.diagnostics.map((d) => ({ ...d, summary: parts.secrets.redact(d.summary), ...(d.detail ? { detail: parts.secrets.redact(d.detail) } : {}) })) };
}

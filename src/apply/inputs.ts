import type { StepMeta } from "../plan/plan.js";
import { resolveInputsNow, type ResolvedInputs } from "../runtime/resolve-inputs.js";
import { withIgnoredChanges } from "../plan/decide.js";
import { withPlannedName } from "../plan/auto-names.js";
import { jsonInputs } from "../runtime/json-values.js";
import { inputSchemaProblems } from "../runtime/schema-check.js";
import { secretKeysWith } from "../provider/schema.js";
import { replaceTriggers } from "../plan/triggers.js";
import { UNKNOWN, containsUnknown } from "../core/unknown.js";
import type { Props } from "../state/types.js";
import { checkDiagnostic, type CheckResult } from "../provider/provider.js";
import { UserError } from "../core/diagnostic.js";
import type { HandlerContext } from "./context.js";
import type { Action } from "../plan/actions.js";
import type { CustomNode, GraphNode } from "../program/node.js";

/** An action that makes or changes an object from the program's inputs. */
type MakingAction = Extract<Action, { kind: "create" | "update" | "replace" }>;

/** What a create or update sends: the inputs, which are secret, and the meta its record gets. */
export interface ApplyInputs {
  news: Props;
  secretKeys: string[];
  /** The step's meta, with the replaceTriggeredBy hash when it only became known now. */
  meta: StepMeta;
}

/**
 * The inputs to send: the planned ones when fully known, else resolved again now that the values they
 * came from are real (outputs of resources created in this run, snapshots of waits that ran). Their secret
 * values are registered, so no message can show them.
 *
 * @example const { news, secretKeys, meta } = await inputsFor(action, ctx, node);
 */
export function inputsFor(action: MakingAction, ctx: HandlerContext, node: GraphNode | undefined): ApplyInputs | Promise<ApplyInputs> {
  const { step } = action;
  const triggersPending = node?.kind === "custom" && node.options.replaceTriggeredBy.length > 0 && step.meta.triggers === undefined;
  // Planned inputs that are all known are sent as planned, without an async step (most creates of a fresh up).
  if (!containsUnknown(step.news) && !triggersPending) return registered(ctx, { news: step.news, secretKeys: step.secretKeys, meta: step.meta });
  const done = ({ news, secretKeys, triggers }: Resolved) => registered(ctx, { news, secretKeys, meta: triggers ? { ...step.meta, triggers } : step.meta });
  const r = resolvedFor(action, ctx, node, triggersPending);
  return r instanceof Promise ? r.then(done) : done(r);
}

/** The inputs, their secret values registered first so no message can show them. */
function registered(ctx: HandlerContext, inputs: ApplyInputs): ApplyInputs {
  ctx.secrets.addProps(inputs.news, inputs.secretKeys);
  return inputs;
}

/** The inputs resolved now that the values they came from are real: at once when every value is known already (the usual case). */
function resolvedFor(action: MakingAction, ctx: HandlerContext, node: GraphNode | undefined, triggersPending: boolean): Resolved | Promise<Resolved> {
  if (node?.kind !== "custom") throw new UserError("its planned inputs hold values known only after apply, and the program that declares it is not loaded: run up with the program");
  const scope = ctx.scope(action);
  const r = resolveInputsNow(node.inputs, scope);
  if (!(r instanceof Promise) && !triggersPending) return providerChecked(action, ctx, node, checkedNews(action, node, r));
  return (async () => {
    const out = await providerChecked(action, ctx, node, checkedNews(action, node, await r));
    if (triggersPending) {
      const t = await replaceTriggers(node, scope, undefined);
      if (t?.hash) out.triggers = t.hash;
    }
    return out;
  })();
}

/** Resolved inputs. */
interface Resolved {
  news: Props;
  secretKeys: string[];
  triggers?: string;
}

/** The inputs to send from values resolved now, checked as the plan checked the rest; throws naming what is wrong. */
function checkedNews(action: MakingAction, node: CustomNode, r: ResolvedInputs): Resolved {
  const { step } = action;
  const { values, problems } = jsonInputs(r.values);
  if (problems.length) throw new UserError(`${problems.join("; ")}: state holds plain JSON data`);
  // The name the plan made for the object (the program gives none) is kept: the plan showed it.
  const named = withPlannedName(values, step.news, node.definition.schema);
  const news = containsUnknown(step.news) ? withIgnoredChanges(named, "olds" in step ? step.olds : undefined, node.options.ignoreChanges) : step.news;
  const still = Object.keys(news).filter((k) => containsUnknown(news[k]) || news[k] === UNKNOWN);
  if (still.length) throw new Error(`inputs ${still.join(", ")} are still unknown after their dependencies were applied`);
  const secretKeys = r.secretKeys.length === 0 ? step.secretKeys : [...new Set([...r.secretKeys, ...step.secretKeys])];
  // Values that became known only now are checked against the schema as the plan checked the rest.
  const wrong = inputSchemaProblems(news, node.definition.schema, secretKeysWith(node.definition.schema, secretKeys));
  if (wrong.length) throw new UserError(`${wrong.join("; ")}: nothing was sent to the provider`);
  return { news, secretKeys };
}

/**
 * The inputs once more through the provider's own `check`, when some were known only now: the plan could
 * not judge those values (a name built from another object's output, say), and a value the provider would
 * refuse must fail this resource before its request, not in the cloud. Secret values are registered first,
 * so the message cannot show them.
 */
function providerChecked(action: MakingAction, ctx: HandlerContext, node: CustomNode, out: Resolved): Resolved | Promise<Resolved> {
  const provider = ctx.provider(action.step.type, action.step.urn, node);
  if (!provider.check || !containsUnknown(action.step.news)) return out;
  ctx.secrets.addProps(out.news, out.secretKeys);
  const found = provider.check({ urn: action.step.urn, inputs: out.news });
  const judged = (diagnostics: CheckResult): Resolved => {
    const errors = diagnostics.map(checkDiagnostic).filter((d) => d.severity === "error");
    if (!errors.length) return out;
    const what = errors.map((d) => (d.attribute ? `input "${d.attribute}": ${d.summary}` : d.summary));
    const summary = `${what.join("; ")} (checked once the values known only at apply were known): nothing was sent to the provider`;
    throw new UserError({ summary, urn: action.step.urn, ...(errors.length === 1 && errors[0]!.attribute ? { attribute: errors[0]!.attribute } : {}) });
  };
  return found instanceof Promise ? found.then(judged) : judged(found);
}

import type { GraphNode } from "../../program/node.js";
import { IncompleteCreateError } from "../../core/errors.js";
import { resultProblem } from "../../runtime/json-values.js";
import type { Action } from "../../plan/actions.js";
import type { StepMeta } from "../../plan/plan.js";
import type { ResourceSchema } from "../../provider/schema.js";
import type { OpContext, Provider, ProviderInstance } from "../../provider/provider.js";
import type { HandlerContext, Handler } from "../context.js";
import { checkCreated, invoke, type ProviderCall } from "../invoke.js";
import { inputsFor, type ApplyInputs } from "../inputs.js";
import { recordFor } from "../record.js";
import type { DeposedObject, Props, StackState, StateMutation } from "../../state/types.js";
import type { ObjectFacts } from "../record.js";
import { objectFacts, valueOf } from "./common.js";
import { redactorFor } from "../secret-registry.js";

type CreateAction = Extract<Action, { kind: "create" }>;
type ReplaceAction = Extract<Action, { kind: "replace" }>;

/** What a provider's create hands back. */
interface Created {
  id: string;
  outputs: Props;
}

/**
 * Creates a new object. A create that made the object but could not finish it (`IncompleteCreateError`)
 * is recorded tainted, so it is never lost and the next plan replaces it.
 */
export const create: Handler<CreateAction> = async (action, ctx, node) => {
  const planned = inputsFor(action, ctx, node);
  const inputs = planned instanceof Promise ? await planned : planned; // known as planned: no turn of the event loop
  const { result, op } = await invoke(ctx.calls, new CreateCall(action, ctx, node, inputs, "create"));
  const object = objectFacts(ctx, result.id, inputs.news, result.outputs, inputs.secretKeys);
  return { op, changes: createdChanges(action.step, inputs.meta, object), value: valueOf(node, object) };
};

/** The record of a created object, under its URN (and none left under the URN it was renamed from). */
function createdChanges(step: CreateAction["step"], meta: StepMeta, object: ObjectFacts): StateMutation[] {
  const upsert: StateMutation = { kind: "upsert", resource: recordFor(step.urn, step.type, meta, object) };
  return step.movedFrom ? [{ kind: "remove", urn: step.movedFrom }, upsert] : [upsert];
}

/**
 * Asks the provider for the new object of a replace. An object made but not finished is recorded tainted,
 * with what `kept` says the record holds besides (the replace's deposed objects).
 *
 * @example const { result, op } = await createObject(action, ctx, node, inputs, (s) => ({ deposed: deposedAt(s) }));
 */
export function createObject(
  action: ReplaceAction,
  ctx: HandlerContext,
  node: GraphNode | undefined,
  inputs: ApplyInputs,
  kept: (s: StackState) => { deposed?: DeposedObject[] },
): Promise<{ result: Created; op: number }> {
  return invoke(ctx.calls, new CreateCall(action, ctx, node, inputs, "replace-create", kept));
}

/**
 * A create's provider call as {@link invoke} makes it: one object per create, whose parts are its methods
 * (an object of closures per create would be a visible share of a fast provider's apply).
 */
class CreateCall implements ProviderCall<Created> {
  readonly urn;
  readonly type;
  readonly journal;
  readonly op = "create";
  readonly timeoutMs;
  readonly instance: ProviderInstance | undefined;
  private readonly provider: Provider<Props, Props>;
  private readonly schema: ResourceSchema | undefined;

  constructor(
    readonly action: CreateAction | ReplaceAction,
    private readonly ctx: HandlerContext,
    node: GraphNode | undefined,
    private readonly inputs: ApplyInputs,
    kind: "create" | "replace-create",
    private readonly kept: (s: StackState) => { deposed?: DeposedObject[] } = () => ({}),
  ) {
    const { step } = action;
    this.urn = step.urn;
    this.type = step.type;
    this.journal = { kind };
    this.timeoutMs = inputs.meta.timeouts?.create;
    this.instance = ctx.instance(node);
    this.provider = ctx.provider(step.type, step.urn, node);
    this.schema = node?.kind === "custom" ? node.definition.schema : undefined;
  }

  call(c: OpContext): Promise<Created> {
    return this.provider.create({ urn: this.urn, inputs: this.inputs.news, ctx: c });
  }

  check(r: Created): string | undefined {
    return checkCreated(r) ?? resultProblem(r.outputs, this.schema);
  }

  onError(e: unknown, s: StackState): StateMutation[] {
    if (!(e instanceof IncompleteCreateError)) return [];
    const { news, secretKeys, meta } = this.inputs;
    return [{ kind: "upsert", resource: recordFor(this.urn, this.type, meta, { id: e.id, inputs: news, outputs: e.outputs, secretKeys }, { tainted: true, ...this.kept(s) }) }];
  }

  /** A create's result that arrives after the call was abandoned is recorded as the create would have (not a replace's: its record needs the state). */
  get lateChanges(): ((r: Created) => StateMutation[]) | undefined {
    const { action, ctx, inputs } = this;
    if (action.kind !== "create") return undefined;
    return (r) => createdChanges(action.step, inputs.meta, objectFacts(ctx, r.id, inputs.news, r.outputs, inputs.secretKeys));
  }

  redact(text: string): string {
    return redactorFor(this.action.step)(text);
  }
}

/**
 * The cloud permissions a plan needs, as a least-privilege IAM policy for the role that applies it: each step
 * becomes the provider operations its kind says it runs (a create, a replace's create and delete, a wait's
 * reads), and each type's provider says what an operation takes ({@link Provider.permissions}). Plain data in
 * and out.
 */
import type { Provider, ProviderOperation } from "../provider/provider.js";
import { typeOf } from "../core/urn.js";
import type { PlanStep } from "./plan.js";
import { stepKindOf } from "./steps/index.js";
import type { OperationsView } from "./steps/step-parts.js";

/** What one operation of a type needs, as its provider says; undefined when the provider cannot say. */
export type PermissionsOf = (type: string, operation: ProviderOperation) => readonly string[] | undefined;

/**
 * An IAM policy document allowing the listed actions.
 *
 * @example const p: PolicyDocument = { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: ["sqs:CreateQueue"], Resource: "*" }] };
 */
export interface PolicyDocument {
  Version: "2012-10-17";
  Statement: { Effect: "Allow"; Action: string[]; Resource: "*" }[];
}

/** What {@link planPermissions} finds. */
export interface PlanPermissions {
  /** The policy the plan's operations need (no statement when they need nothing that is known). */
  policy: PolicyDocument;
  /** The operations the plan runs, by type token, sorted. */
  operations: Record<string, ProviderOperation[]>;
  /** Types whose providers do not say what they need: the policy leaves them out. */
  unstated: string[];
}

/** The options of {@link planPermissions}. */
export interface PermissionOptions {
  /** The plan was made after a refresh (`--refresh`): every object a step has in state was read. */
  refreshed?: boolean;
  /** Types read besides the steps' (a refresh reads every object in state, `--refresh-only` plans no step). */
  read?: readonly string[];
}

const ORDER: readonly ProviderOperation[] = ["create", "read", "update", "delete", "list"];

/** Adds `op` to `type`'s operations. */
function use(ops: Map<string, Set<ProviderOperation>>, type: string, op: ProviderOperation): void {
  let set = ops.get(type);
  if (!set) ops.set(type, (set = new Set()));
  set.add(op);
}

/** The type a wait on `target` reads: the target's, through waits on waits. */
function waitedType(target: string, byUrn: ReadonlyMap<string, PlanStep>): string {
  // Narrowed to read a wait's own target, not to decide anything by kind.
  for (let s = byUrn.get(target); s?.kind === "wait"; s = byUrn.get(target)) target = s.target;
  return byUrn.get(target)?.type ?? typeOf(target);
}

/**
 * The provider operations each type runs in a plan, as each step's kind says (`StepKindSpec.operations`:
 * creates, updates and deletes as planned, a replace's create and delete, reads for lookups, adoptions
 * (`import`), refreshes and waits), and `list` where waits on several objects of one type read them together.
 *
 * @example planOperations(plan.steps).get("aws:sqs:Queue") // Set { "create" }
 */
export function planOperations(steps: readonly PlanStep[], opts: PermissionOptions = {}): Map<string, Set<ProviderOperation>> {
  const ops = new Map<string, Set<ProviderOperation>>();
  let byUrn: Map<string, PlanStep> | undefined;
  const view: OperationsView = {
    refreshed: opts.refreshed === true,
    waitedType: (target) => waitedType(target, (byUrn ??= new Map(steps.map((s) => [s.urn, s])))),
  };
  const polledPerType = new Map<string, number>();
  for (const s of steps) {
    for (const u of stepKindOf(s).operations(s, view)) {
      use(ops, u.type, u.operation);
      if (u.polled) polledPerType.set(u.type, (polledPerType.get(u.type) ?? 0) + 1);
    }
  }
  for (const [type, n] of polledPerType) if (n > 1) use(ops, type, "list");
  for (const type of opts.read ?? []) use(ops, type, "read");
  return ops;
}

/**
 * The permissions a plan needs: every action the providers name for the operations the plan runs, sorted and
 * each once, as one `Allow` statement on every resource, and the types whose providers cannot say.
 *
 * @example planPermissions(plan.steps, (type, op) => definitionOf(type)?.provider.permissions?.(op)).policy
 */
export function planPermissions(steps: readonly PlanStep[], permissionsOf: PermissionsOf, opts: PermissionOptions = {}): PlanPermissions {
  const actions = new Set<string>();
  const unstated = new Set<string>();
  const operations: Record<string, ProviderOperation[]> = {};
  const ops = planOperations(steps, opts);
  for (const type of [...ops.keys()].sort()) {
    const used = ORDER.filter((o) => ops.get(type)!.has(o));
    operations[type] = used;
    for (const op of used) {
      const said = permissionsOf(type, op);
      if (said === undefined) unstated.add(type);
      else for (const a of said) actions.add(a);
    }
  }
  const sorted = [...actions].sort();
  return {
    policy: { Version: "2012-10-17", Statement: sorted.length ? [{ Effect: "Allow", Action: sorted, Resource: "*" }] : [] },
    operations,
    unstated: [...unstated],
  };
}

/**
 * A {@link PermissionsOf} from the providers of types: the one of each type token, if any.
 *
 * @example permissionsFrom((type) => definitions.get(type)?.provider)
 */
export function permissionsFrom(providerOf: (type: string) => Pick<Provider, "permissions"> | undefined): PermissionsOf {
  return (type, op) => providerOf(type)?.permissions?.(op);
}

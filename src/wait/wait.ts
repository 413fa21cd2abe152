import { createHash } from "node:crypto";
import type { Output } from "../program/output.js";
import { DeclarationSites, userCallSite } from "../core/declaration-site.js";
import { UserError } from "../core/diagnostic.js";
import { closestName, unknownKey } from "../core/did-you-mean.js";
import { NODE, attributeOutput, dependsOnList, positiveDuration, registerNode, type Dependable, type DependsOn, type Resource } from "../program/resource.js";
import type { CustomNode, GraphNode, LookupNode, ResourceNode, WaitNodeSpec } from "../program/node.js";
import { milliseconds, minutes, seconds, type Duration } from "../core/duration.js";
import { attributesRead, buildPredicate, formatPredicate, type Attrs, type Predicate } from "../core/predicate.js";

/** The type token of wait nodes (it appears in their URNs). */
export const WAIT_TYPE = "cairn:wait";

/** How long a wait may take when neither it nor its target type says. */
export const DEFAULT_WAIT_TIMEOUT: Duration = minutes(5);

/** The longest pause between reads when neither the wait nor its target type says. */
export const DEFAULT_WAIT_INTERVAL: Duration = seconds(5);

/** The attributes of a resource or wait handle: each `Output<T>` property, as `T`. */
export type AttributesOf<R> = { [K in keyof R as R[K] extends Output<any> ? K : never]: R[K] extends Output<infer T> ? T : never };

/**
 * What `wait(...)` returns: every attribute of the target with the same type, each resolving to the
 * snapshot from the read that satisfied `until`, and each carrying a dependency on the wait — so
 * whatever uses `issued.arn` runs after the wait. It can itself be waited on, listed in `dependsOn`, or
 * returned as a stack output.
 */
export type WaitHandle<R> = Dependable & { readonly [K in keyof AttributesOf<R>]-?: Output<AttributesOf<R>[K]> };

/**
 * Options of {@link wait}. `until` is required; everything else has a default.
 *
 * @example
 * { until: c => c.status.eq("ISSUED"), dependsOn: [record], timeout: minutes(75) }
 */
export interface WaitOptions<R> {
  /** The condition to wait for, built from the typed attributes of the target. */
  until: (target: Attrs<AttributesOf<R>>) => Predicate;
  /** Ends the wait at once as failed when it holds. Overrides the target type's default failure states. */
  failWhen?: (target: Attrs<AttributesOf<R>>) => Predicate;
  /** Resources or waits to finish before the wait starts polling (e.g. the validation record). */
  dependsOn?: DependsOn | readonly DependsOn[];
  /** How long to wait at most: a Duration or text like `"75min"`. Default: the target type's, else 5 minutes. */
  timeout?: Duration | string;
  /** The longest pause between two reads. Default: the target type's, else 5 seconds. */
  interval?: Duration | string;
  /** Display name in plans, progress and errors. Default: `wait(<target name>)`. */
  name?: string;
  /** The enclosing component (default: the target's). */
  parent?: Resource;
}

/** The shortest `interval` a wait accepts: reading more often only adds load (and throttling). */
export const MIN_WAIT_INTERVAL: Duration = milliseconds(100);

function durationOption(v: Duration | string | undefined, what: string): Duration | undefined {
  return v === undefined ? undefined : positiveDuration(v, what);
}

/** The resource (or lookup) at the end of a chain of waits. */
export function rootTarget(node: GraphNode): CustomNode | LookupNode {
  let n = node;
  while (n.kind === "wait") n = n.wait.target;
  return n;
}

/** Attributes listed in full when a predicate reads an unknown one and none is close; more are only counted. */
const LISTED_ATTRIBUTES = 12;

/**
 * Refuses predicates that read attributes the target type does not have (for JavaScript users and `any`
 * types), naming the wait's line and the attribute meant when one is close.
 */
function checkAttributes(p: Predicate, root: CustomNode | LookupNode, what: string, called: NodeJS.CallSite | undefined): void {
  const schema = root.definition?.schema;
  if (!schema?.outputs) return;
  const known = new Set(["id", ...Object.keys(schema.outputs), ...Object.keys(schema.inputs ?? {})]);
  const bad = attributesRead(p).find((a) => !known.has(a));
  if (bad === undefined) return;
  const meant = closestName(bad, known);
  const names = [...known];
  const detail = meant
    ? `Did you mean "${meant}"?`
    : names.length <= LISTED_ATTRIBUTES
      ? `Its attributes are: ${names.join(", ")}.`
      : `None of its ${names.length} attributes is close to it: see the outputs of ${root.type} in its type.`;
  const site = new DeclarationSites().siteOf(called);
  throw new UserError({ summary: `${what} reads "${bad}", which is not an attribute of ${root.type}.`, detail, urn: root.urn, attribute: bad, site });
}

/** Every option `wait` takes (see {@link WaitOptions}). */
const WAIT_OPTIONS: ReadonlySet<string> = new Set(["until", "failWhen", "dependsOn", "timeout", "interval", "name", "parent"]);

/** Refuses an option `wait` does not take (`untill`), at the wait's line, with the one meant. */
function checkWaitOptionNames(opts: object, subject: string, called: NodeJS.CallSite | undefined): void {
  const bad = unknownKey(opts, WAIT_OPTIONS);
  if (!bad) return;
  throw new UserError({ summary: `wait(${subject}, ...) has the option "${bad.key}", which wait does not take.`, detail: bad.hint, attribute: bad.key, site: new DeclarationSites().siteOf(called) });
}

class WaitHandleTarget {
  readonly [NODE]: ResourceNode;
  constructor(node: ResourceNode) {
    this[NODE] = node;
  }
}

function handleFor(node: ResourceNode): WaitHandle<unknown> {
  const label = node.name;
  return new Proxy(new WaitHandleTarget(node), {
    get(target, prop) {
      if (prop === NODE) return target[NODE];
      if (prop === Symbol.for("nodejs.util.inspect.custom")) return () => `Wait<${label}>`;
      if (typeof prop === "symbol" || prop === "then") return undefined; // never mistaken for a promise
      if (prop === "toString" || prop === "toJSON") {
        return () => {
          throw new UserError(`${label} was used as a value. Use one of its attributes instead, e.g. issued.arn (an Output).`);
        };
      }
      return attributeOutput(node, prop);
    },
  }) as unknown as WaitHandle<unknown>;
}

/**
 * Declares a wait: nothing that reads the returned handle's attributes starts until `until` holds on a
 * fresh read of `target`. The wait itself is not a resource: it has no row in state (a satisfied wait marks
 * its target's record), and it runs again whenever something around it changes or it has not held yet.
 *
 * @example
 * const issued = wait(cert, {
 *   until: c => c.status.eq("ISSUED"),
 *   failWhen: c => c.status.in(["FAILED", "REVOKED"]),
 *   dependsOn: [record],
 *   timeout: minutes(75),
 * });
 * new route53.RecordSet("publish", { ..., records: [issued.arn] }); // runs after the wait
 */
export function wait<R extends Dependable>(target: R, opts: WaitOptions<R>): WaitHandle<R> {
  const called = userCallSite(wait);
  const targetNode = (target as Partial<Dependable> | undefined)?.[NODE];
  if (!targetNode) throw new UserError(`wait(target, ...) needs a resource, a lookup or another wait as its target; got ${typeof target === "object" ? "an object that is none of these" : String(target)}.`);
  if (targetNode.kind === "component") {
    throw new UserError(`wait() cannot wait on the component "${targetNode.name}" (${targetNode.type}): it has no state of its own. Wait on one of the resources inside it.`);
  }
  if (opts && typeof opts === "object") checkWaitOptionNames(opts, targetNode.name, called);
  if (!opts || typeof opts.until !== "function") throw new UserError(`wait(${targetNode.name}, ...) needs an \`until\` condition, e.g. { until: t => t.status.eq("READY") }.`);
  if (opts.name !== undefined && (typeof opts.name !== "string" || opts.name.length === 0)) throw new UserError(`wait(${targetNode.name}, ...): name must be a non-empty string.`);
  const subject = targetNode.name;
  const display = opts.name ?? `wait(${subject})`;
  const what = (part: string) => `${part} of ${opts.name ? `wait "${opts.name}"` : display}`;
  const until = buildPredicate(opts.until as (a: Attrs<unknown>) => Predicate, what("until"));
  const failWhen = opts.failWhen ? buildPredicate(opts.failWhen as (a: Attrs<unknown>) => Predicate, what("failWhen")) : undefined;
  const root = rootTarget(targetNode as GraphNode);
  checkAttributes(until, root, what("until"), called);
  if (failWhen) checkAttributes(failWhen, root, what("failWhen"), called);

  const spec: WaitNodeSpec = { target: targetNode as GraphNode, subject, named: opts.name !== undefined, until };
  if (failWhen) spec.failWhen = failWhen;
  const timeout = durationOption(opts.timeout, what("timeout"));
  const interval = durationOption(opts.interval, what("interval"));
  if (interval !== undefined && interval < MIN_WAIT_INTERVAL) throw new UserError(`${what("interval")} must be at least 100ms (got ${interval}ms): reading more often only adds load.`);
  if (timeout !== undefined) spec.timeout = timeout;
  if (interval !== undefined) spec.interval = interval;

  // An unnamed wait is identified by its target and its predicate, so it keeps its identity across runs
  // and two waits on one target are told apart.
  const urnName = opts.name ?? `${display}@${createHash("sha256").update(`${targetNode.urn}\n${formatPredicate(until, subject)}`).digest("hex").slice(0, 8)}`;
  const parent = opts.parent ?? (targetNode.parent ? ({ [NODE]: targetNode.parent } as unknown as Resource) : undefined);
  const dependsOn = dependsOnList(opts.dependsOn);
  const node = registerNode(WAIT_TYPE, display, { dependsOn: [target, ...dependsOn], ...(parent ? { parent } : {}) }, { kind: "wait", definition: root.definition, wait: spec }, called, urnName);
  return handleFor(node) as WaitHandle<R>;
}

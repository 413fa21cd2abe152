import { Output, collectResources } from "./output.js";
import { attributeOutput } from "./attribute-output.js";
import { findCycle } from "./cycles.js";
import { STAND_IN_TEXT, isStandIn } from "./deferral/stand-in.js";
import { currentContext, type ApplyFrame, type EvalContext } from "./context.js";
import { makeUrn, type Urn } from "../core/urn.js";
import type { CustomTimeouts, ManagedOptions, ResourceDefinition, ResourceNode, WaitNodeSpec } from "./node.js";
import { parseDuration, type Duration } from "../core/duration.js";
import type { ProviderInstance } from "../provider/provider.js";
import { userCallSite, type DeclarationSite } from "../core/declaration-site.js";
import { DistinctNodes } from "./distinct-nodes.js";
import { UserError } from "../core/diagnostic.js";
import { unknownKey } from "../core/did-you-mean.js";

export { attributeOutput };

/** Where the internal node of a resource or wait lives (a symbol, so it never collides with attribute names). */
export const NODE: unique symbol = Symbol.for("cairn.node");

/** Anything that can be waited for with `dependsOn`: resources and waits. */
export interface Dependable {
  readonly [NODE]: ResourceNode;
}

/**
 * An earlier identity of a resource. A string is a full URN; an object changes only the parts given
 * (e.g. `{ name: "old-name" }` after a rename, `{ parent: null }` after moving it out of a component).
 */
export type Alias = string | { name?: string; type?: string; parent?: Resource | null; stack?: string; project?: string };

/**
 * Options every resource accepts.
 *
 * @example
 * new local.File("cfg", { path: "out/a.json", content: "{}" }, { protect: true, ignoreChanges: ["mode"] });
 */
export interface ResourceOptions {
  /** Resources (or waits) to finish before this one, beyond those its inputs already refer to. */
  dependsOn?: DependsOn | readonly DependsOn[];
  /** The enclosing resource, usually a component: its type becomes part of this URN. */
  parent?: Resource;
  /** Refuse to delete or replace this resource. */
  protect?: boolean;
  /** Input attributes whose changes are ignored after creation. */
  ignoreChanges?: readonly string[];
  /** Input attributes whose changes replace the resource instead of updating it (`"*"` for any). */
  replaceOnChanges?: readonly string[];
  /** When replacing, delete the old object before creating the new one (for names that must be unique). */
  deleteBeforeReplace?: boolean;
  /**
   * When removed from the program, or replaced, forget the object instead of deleting it: it stays in the
   * cloud, with its data (CDK's `RemovalPolicy.RETAIN`). Its delete is then not data loss.
   */
  retainOnDelete?: boolean;
  /**
   * Allow a replace of this resource to delete its old object with the data in it, when its type is stateful
   * (a database, bucket, table, file system, log group): without it `up` refuses such a plan, unless run with
   * `--allow-data-loss <name>`. CDK's `RemovalPolicy.DESTROY`; `protect` is the opposite, refusing even that.
   *
   * @example new rds.DBInstance("scratch", { engine: "postgres", … }, { allowDataLoss: true })
   */
  allowDataLoss?: boolean;
  /** Earlier identities: a renamed or re-parented resource keeps its cloud object. */
  aliases?: readonly Alias[];
  /** Time budgets for the provider's create, update and delete: Durations or text such as `"10m"`. */
  customTimeouts?: CustomTimeouts | { create?: Duration | string; update?: Duration | string; delete?: Duration | string };
  /**
   * Replace this resource whenever one of these values changes: outputs (`db.endpoint`) or whole resources
   * (any change of theirs). E.g. `replaceTriggeredBy: [config.sha256]`.
   */
  replaceTriggeredBy?: readonly unknown[];
  /**
   * Adopt the existing cloud object with this id instead of creating one: it is read, recorded, and from
   * then on managed (an update follows at once if the program declares other values). Once the resource
   * is in state the option has no further effect.
   *
   * @example new route53.HostedZone("zone", { name: "example.dev" }, { import: "Z0123456789" })
   */
  import?: string;
  /**
   * A configured provider instance, e.g. `new aws.Provider("use1", { region: "us-east-1" })`. Children of a
   * component inherit the component's. Changing where the object lives (its settings) replaces it.
   */
  provider?: ProviderInstance;
  /**
   * Whether Cairn names this object when the program gives no name and its type names objects
   * (`jobs-1a2b3c4`, kept in state). Default: the program's setting (`program(name, fn, { autoName })`), on
   * unless turned off; `false` lets the cloud choose the name. A name already in state is kept either way.
   *
   * @example new sqs.Queue("jobs", {}, { autoName: false })
   */
  autoName?: boolean;
}

/**
 * One entry of `dependsOn`: a resource or wait, or an output of them — what an `apply` callback that
 * declares resources returns, so a node can wait for resources only known once the callback runs.
 *
 * @example wait(cert, { until, dependsOn: cert.domainValidationOptions.apply((os) => os.map(recordFor)) })
 */
export type DependsOn = Dependable | Output<Dependable | readonly Dependable[]>;

const NO_DEPENDS_ON: readonly DependsOn[] = Object.freeze([]);

/** `dependsOn` as a list (it may be given as one item). */
export function dependsOnList(d: ResourceOptions["dependsOn"]): readonly DependsOn[] {
  return d === undefined ? NO_DEPENDS_ON : Array.isArray(d) ? d : [d as DependsOn];
}

const NO_TYPES: readonly string[] = Object.freeze([]);

/** The types of the components a node is inside, outermost first (a URN names them). */
function parentTypes(n: ResourceNode | undefined): readonly string[] {
  if (!n) return NO_TYPES;
  const out: string[] = [];
  for (let p: ResourceNode | undefined = n; p; p = p.parent) out.unshift(p.type);
  return out;
}

/** What a node of each kind adds to the common fields. */
export type NodeExtra =
  | { kind: "custom"; definition: ResourceDefinition; inputs: Record<string, unknown> }
  | { kind: "lookup"; definition: ResourceDefinition; lookupId: unknown }
  | { kind: "wait"; definition: ResourceDefinition | undefined; wait: WaitNodeSpec }
  | { kind: "component" };

/** Collects the resources inputs refer to; a cyclic input is refused naming its path (walking it would overflow the stack). */
function collectInputs(inputs: unknown, deps: DistinctNodes, what: string): void {
  try {
    collectResources(inputs, deps);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    for (const [k, v] of Object.entries((inputs ?? {}) as Record<string, unknown>)) {
      const c = findCycle(v, k);
      if (c) throw new UserError(`${what}: input "${c.at}" refers back to "${c.to}" (a cyclic object). Inputs must be plain data that state can hold as JSON, which cannot be cyclic: pass a copy without the back-reference.`);
    }
    throw e;
  }
}

/**
 * @internal Builds the internal node for a resource, lookup, wait or component being declared and registers it
 * with the current evaluation. Options are validated here, so a mistake is reported where it was made. `called`
 * is where the user called into Cairn (see `userCallSite`), found by the caller, which knows the function the
 * user called (`new.target`, `wait`).
 */
export function registerNode(type: string, name: string, opts: ResourceOptions, extra: NodeExtra, called: NodeJS.CallSite | undefined, urnName: string = name): ResourceNode {
  // A name that is the unknown value itself, in a run on stand-ins (see `standIn`): it prints as "…".
  if (isStandIn(name)) name = urnName = STAND_IN_TEXT;
  if (typeof name !== "string" || name.length === 0) throw new UserError(`A ${type} resource needs a non-empty name (got ${JSON.stringify(name)}): give it a name, unique among the ${type} resources of the program.`);
  // "::" separates a URN's parts, and control characters cannot be printed or typed back in a command.
  if (name.includes("::") || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new UserError(`The name ${JSON.stringify(name)} of a ${type} resource cannot contain "::" or control characters (they would break its URN): use letters, digits and - _ . / : @ etc.`);
  }
  const what = extra.kind === "wait" ? `The wait ${name}` : `${extra.kind === "component" ? "Component" : "Resource"} "${name}" (${type})`;
  const { ctx, frame } = currentContext(what, called);
  const site = ctx.sites.siteOf(called);
  if (opts === null || typeof opts !== "object") throw new UserError(`${what}: options must be an object (got ${String(opts)}): pass an object such as { protect: true }, or leave the options out.`);
  checkOptionNames(opts, what, site);
  const parent = opts.parent?.[NODE];
  const urn = makeUrn({ stack: ctx.stack, project: ctx.project, parentTypes: parentTypes(parent), type, name: urnName });
  const provider = providerFor(extra.kind, type, name, opts, parent) ?? (extra.kind === "custom" || extra.kind === "lookup" ? defaultProvider(ctx, type) : undefined);
  if (extra.kind === "custom" && extra.definition.prepareInputs) extra = { ...extra, inputs: extra.definition.prepareInputs(extra.inputs, { provider, config: ctx.config }) };
  const at: Declaration = { what, ctx, parent, type, name };
  const { deps, values } = declaredDeps(extra, opts, frame, at);
  const options = extra.kind !== "custom" ? DEFAULT_OPTIONS : hasManagedOptions(opts) ? managedOptions(opts, at) : DEFAULT_OPTIONS;
  if (options.replaceTriggeredBy.length) collectResources(options.replaceTriggeredBy, deps);
  const node = makeNode(extra, { urn, type, name, parent, deps: deps.list(), provider, site }, options);
  if (values) node.dependsOnValues = values;
  if (frame) {
    frame.declared++;
    // A run on stand-ins only shows what the callback would declare: nothing of it is registered.
    if (frame.probe) {
      frame.probe.push(node);
      return node;
    }
    node.declaredIn = { on: frame.origin.on.map((n) => n.urn), waitsFor: frame.origin.waitsFor };
  }
  ctx.register(node);
  if (parent) {
    if (parent.children === NO_CHILDREN) parent.children = [];
    parent.children.push(node);
  }
  return node;
}

/**
 * What a node being declared depends on, each once: the resources its inputs refer to, those of the value the
 * callback declaring it ran on, and its `dependsOn` (checked here). Outputs in `dependsOn` are also handed
 * back as `values`: the resources they hold are known while planning.
 */
function declaredDeps(extra: NodeExtra, opts: ResourceOptions, frame: ApplyFrame | undefined, at: Declaration): { deps: DistinctNodes; values?: Output<unknown>[] } {
  const deps = new DistinctNodes();
  if (extra.kind === "custom") collectInputs(extra.inputs, deps, at.what);
  // Made from the value a callback ran on: it follows the resources that value came from (and is
  // deleted before them), as it would had the value been passed as an input.
  if (frame && !frame.probe) for (const n of frame.origin.on) deps.add(n);
  let values: Output<unknown>[] | undefined; // rare: not allocated per resource
  if (opts.dependsOn !== undefined) {
    for (const d of dependsOnList(opts.dependsOn)) {
      if (d instanceof Output) {
        // An output of resources (made by a callback that declares them): its resources are known while planning.
        (values ??= []).push(d);
        for (const r of d.resources) deps.add(r);
        continue;
      }
      if (!d || !(d as Dependable)[NODE]) throw new UserError(`dependsOn of "${at.name}" (${at.type}) must list resources, waits or outputs of them; got ${String(d)}.`);
      deps.add((d as Dependable)[NODE]);
    }
  }
  return values ? { deps, values } : { deps };
}

/** The provider instance a node uses: its own, else its parent's (refused if it serves another package). */
function providerFor(kind: ResourceNode["kind"], type: string, name: string, opts: ResourceOptions, parent: ResourceNode | undefined): ProviderInstance | undefined {
  const provider = opts.provider ?? parent?.provider;
  if (!provider) return undefined;
  const pkg = type.split(":")[0];
  if (kind === "component" || kind === "wait" || provider.package === pkg) return provider;
  if (opts.provider) {
    throw new UserError(`"${name}" (${type}) was given the ${provider.package} provider "${provider.name}", which cannot manage ${pkg} resources: pass a ${pkg} provider, or none.`);
  }
  return undefined;
}

/** The package of each type token seen (`aws` of `aws:s3:Bucket`): cut out once per type, not per resource. */
const packageOfType = new Map<string, string>();

/** The evaluation's provider instance for a type's package, if it has one (asked once per resource: no string is cut). */
function defaultProvider(ctx: EvalContext, type: string): ProviderInstance | undefined {
  let pkg = packageOfType.get(type);
  if (pkg === undefined) packageOfType.set(type, (pkg = type.split(":")[0]!));
  return ctx.defaultProviders[pkg];
}

/** The children of a node that has none yet (most): one frozen list, replaced by a node's own on its first child. */
const NO_CHILDREN = Object.freeze([]) as unknown as ResourceNode[];

/**
 * The node, as an object literal per kind: every node of a kind has the same shape (spreading varied objects
 * together would give V8 slow, dictionary-mode objects, and every later read of 10,000 nodes pays for it).
 */
function makeNode(
  extra: NodeExtra,
  b: { urn: Urn; type: string; name: string; parent: ResourceNode | undefined; deps: readonly ResourceNode[]; provider: ProviderInstance | undefined; site: DeclarationSite | undefined },
  options: ManagedOptions,
): ResourceNode {
  const children = NO_CHILDREN;
  switch (extra.kind) {
    case "custom":
      return { kind: "custom", index: -1, urn: b.urn, type: b.type, name: b.name, parent: b.parent, children, deps: b.deps, provider: b.provider, site: b.site, definition: extra.definition, inputs: extra.inputs, options, attributes: undefined };
    case "lookup":
      return { kind: "lookup", index: -1, urn: b.urn, type: b.type, name: b.name, parent: b.parent, children, deps: b.deps, provider: b.provider, site: b.site, definition: extra.definition, lookupId: extra.lookupId, attributes: undefined };
    case "wait":
      return { kind: "wait", index: -1, urn: b.urn, type: b.type, name: b.name, parent: b.parent, children, deps: b.deps, provider: b.provider, site: b.site, definition: extra.definition, wait: extra.wait, attributes: undefined };
    case "component":
      return { kind: "component", index: -1, urn: b.urn, type: b.type, name: b.name, parent: b.parent, children, deps: b.deps, provider: b.provider, site: b.site, attributes: undefined };
    default: {
      const never: never = extra;
      throw new Error(`unknown node kind ${JSON.stringify(never)}`);
    }
  }
}

/** The options of nearly every resource, shared (and frozen): 10,000 copies of empty lists were 50,000 objects to keep. */
const DEFAULT_OPTIONS: ManagedOptions = Object.freeze({
  protect: false,
  retainOnDelete: false,
  allowDataLoss: false,
  deleteBeforeReplace: false,
  ignoreChanges: Object.freeze([]),
  replaceOnChanges: Object.freeze([]),
  replaceTriggeredBy: Object.freeze([]),
  aliases: Object.freeze([]),
  customTimeouts: Object.freeze({}),
  import: undefined,
  autoName: undefined,
});

/** Every option {@link managedOptions} reads: when none is given, the resource gets {@link DEFAULT_OPTIONS}. */
const OPTION_KEYS = ["protect", "retainOnDelete", "allowDataLoss", "deleteBeforeReplace", "ignoreChanges", "replaceOnChanges", "replaceTriggeredBy", "aliases", "customTimeouts", "import", "autoName"] as const;

/** Every option a resource takes (see {@link ResourceOptions}). */
const RESOURCE_OPTIONS: ReadonlySet<string> = new Set<string>([...OPTION_KEYS, "dependsOn", "parent", "provider"]);

/** Refuses an option a resource does not take (a misspelt `dependsOn`), at the user's line, with the one meant. */
function checkOptionNames(opts: ResourceOptions, what: string, site: DeclarationSite): void {
  const bad = unknownKey(opts, RESOURCE_OPTIONS);
  if (bad) throw new UserError({ summary: `${what} has the option "${bad.key}", which resources do not take.`, detail: bad.hint, attribute: bad.key, site });
}

/** True when `opts` gives any option {@link managedOptions} reads (nearly every resource gives none). */
function hasManagedOptions(opts: ResourceOptions): boolean {
  for (let i = 0; i < OPTION_KEYS.length; i++) if (opts[OPTION_KEYS[i]!] !== undefined) return true;
  return false;
}

/** A node being declared, for messages and for the URNs of its aliases. */
interface Declaration {
  /** How messages name it: `Resource "cfg" (local:File)`. */
  what: string;
  ctx: { stack: string; project: string };
  parent: ResourceNode | undefined;
  type: string;
  name: string;
}

/** Validates and normalises a managed resource's options (durations parsed, lists checked). */
function managedOptions(opts: ResourceOptions, at: Declaration): ManagedOptions {
  const { what } = at;
  const aliases = (opts.aliases ?? []).map((a): Urn => {
    if (typeof a === "string") return a as Urn;
    const aliasParent = a.parent === undefined ? at.parent : a.parent === null ? undefined : a.parent[NODE];
    return makeUrn({ stack: a.stack ?? at.ctx.stack, project: a.project ?? at.ctx.project, parentTypes: parentTypes(aliasParent), type: a.type ?? at.type, name: a.name ?? at.name });
  });
  const triggers = opts.replaceTriggeredBy ?? [];
  if (!Array.isArray(triggers)) throw new UserError(`${what}: replaceTriggeredBy must be a list of outputs or resources (got ${String(triggers)}).`);
  return {
    protect: flag(opts.protect, "protect", what),
    retainOnDelete: flag(opts.retainOnDelete, "retainOnDelete", what),
    allowDataLoss: flag(opts.allowDataLoss, "allowDataLoss", what),
    deleteBeforeReplace: flag(opts.deleteBeforeReplace, "deleteBeforeReplace", what),
    ignoreChanges: names(opts.ignoreChanges, "ignoreChanges", what),
    replaceOnChanges: names(opts.replaceOnChanges, "replaceOnChanges", what),
    replaceTriggeredBy: triggers,
    aliases,
    customTimeouts: timeouts(opts.customTimeouts, what),
    import: importId(opts.import, what),
    autoName: opts.autoName === undefined ? undefined : flag(opts.autoName, "autoName", what),
  };
}

function importId(v: unknown, what: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v.length === 0) throw new UserError(`${what}: import must be the id of the object to adopt, as a non-empty string (got ${JSON.stringify(v)}).`);
  return v;
}

function flag(v: unknown, option: string, what: string): boolean {
  if (v === undefined) return false;
  if (typeof v !== "boolean") throw new UserError(`${what}: ${option} must be true or false (got ${JSON.stringify(v)}): pass \`${option}: true\` or leave it out.`);
  return v;
}

function names(v: unknown, option: string, what: string): readonly string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || x.length === 0)) {
    throw new UserError(`${what}: ${option} must be a list of input attribute names, e.g. ["content"] or ["*"] (got ${JSON.stringify(v)}).`);
  }
  return v;
}

function timeouts(v: ResourceOptions["customTimeouts"], what: string): CustomTimeouts {
  if (v === undefined) return {};
  if (v === null || typeof v !== "object") throw new UserError(`${what}: customTimeouts must be an object such as { create: minutes(10) } (got ${String(v)}).`);
  const out: CustomTimeouts = {};
  for (const [k, d] of Object.entries(v)) {
    if (k !== "create" && k !== "update" && k !== "delete") throw new UserError(`${what}: customTimeouts has an unknown key "${k}": use create, update or delete.`);
    if (d !== undefined) out[k] = positiveDuration(d, `customTimeouts.${k} of ${what}`);
  }
  return out;
}

/**
 * A duration option given as a Duration or text (`"10m"`): parsed, and refused unless finite and above zero.
 *
 * @example positiveDuration("10m", "customTimeouts.create of cert") // 600000
 */
export function positiveDuration(v: unknown, what: string): Duration {
  let d: number;
  if (typeof v === "string") {
    try {
      d = parseDuration(v);
    } catch (e) {
      throw new UserError(`${what}: ${(e as Error).message}`);
    }
  } else if (typeof v === "number") d = v;
  else throw new UserError(`${what} must be a Duration such as minutes(10) or text like "10m" (got ${JSON.stringify(v)}).`);
  if (!Number.isFinite(d) || d <= 0) throw new UserError(`${what} must be longer than zero (got ${typeof v === "string" ? `"${v}"` : v}): use e.g. minutes(10) or "10m".`);
  return d as Duration;
}

/**
 * The base of everything a program declares. Subclasses: {@link CustomResource} (a cloud object with an id)
 * and {@link ComponentResource} (a group of children).
 */
export abstract class Resource implements Dependable {
  /** @internal Assigned once by the constructor (`declare`: no field definition runs before it, per resource). */
  declare readonly [NODE]: ResourceNode;

  /**
   * @internal `called` is the user's call site when a subclass found it already (null: none is the user's);
   * else it is found here.
   */
  constructor(type: string, name: string, opts: ResourceOptions, extra: NodeExtra, called?: NodeJS.CallSite | null) {
    this[NODE] = registerNode(type, name, opts, extra, called === undefined ? userCallSite(new.target) : (called ?? undefined));
  }

  /** The resource's stable identity (known at once). */
  get urn(): Output<string> {
    const urn = this[NODE].urn;
    return new Output([], () => ({ known: true, value: urn as string, secret: false, deps: [] }));
  }
}

/**
 * A resource managed by a provider: it has a cloud id. Types made by `defineResource` extend it.
 *
 * @example
 * const Counter = defineResource<{ start: number }, { value: number }>("demo:Counter", { provider });
 * const c = new Counter("c", { start: 1 }); // c.value: Output<number>, c.id: Output<string>
 */
export class CustomResource extends Resource {
  /** @internal `called`: see {@link Resource}'s constructor. */
  constructor(type: string, name: string, inputs: Record<string, unknown>, opts: ResourceOptions, definition: ResourceDefinition, kind: "custom" | "lookup" = "custom", called?: NodeJS.CallSite | null) {
    super(type, name, opts, kind === "custom" ? { kind, definition, inputs: checkedInputs(inputs, name, type) } : { kind, definition, lookupId: undefined }, called);
  }

  /** The provider's id for the object (unknown until created). */
  get id(): Output<string> {
    return attributeOutput(this[NODE], "id") as Output<string>;
  }
}

/**
 * Groups child resources under one name; its type becomes part of the children's URNs.
 *
 * @example
 * class Site extends ComponentResource {
 *   readonly index: local.File;
 *   constructor(name: string) {
 *     super("acme:Site", name);
 *     this.index = new local.File(`${name}-index`, { path: `out/${name}.html`, content: "<h1>hi</h1>" }, { parent: this });
 *   }
 * }
 */
export class ComponentResource extends Resource {
  constructor(type: string, name: string, opts: ResourceOptions = {}) {
    super(type, name, opts, { kind: "component" });
  }
}

function checkedInputs(inputs: unknown, name: string, type: string): Record<string, unknown> {
  if (inputs === undefined || inputs === null) return {};
  if (typeof inputs !== "object" || Array.isArray(inputs)) throw new UserError(`Resource "${name}" (${type}): inputs must be an object (got ${JSON.stringify(inputs)}).`);
  return inputs as Record<string, unknown>;
}

/** Reads a resource's URN without an Output (for tests and tools). */
export function urnOf(r: Dependable): Urn {
  return r[NODE].urn;
}


import { of } from "rxjs";
import { Output, collectResources, type Resolver } from "./output.js";
import { currentContext } from "./context.js";
import { makeUrn, type Urn } from "./urn.js";
import type { CustomTimeouts, ResourceDefinition, ResourceNode, WaitNodeSpec } from "./node.js";
import type { ProviderInstance } from "../provider/provider.js";

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
  dependsOn?: Dependable | readonly Dependable[];
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
  /** When removed from the program, forget it instead of deleting the cloud object. */
  retainOnDelete?: boolean;
  /** Earlier identities: a renamed or re-parented resource keeps its cloud object. */
  aliases?: readonly Alias[];
  /** Time budgets for the provider's create, update and delete. */
  customTimeouts?: CustomTimeouts;
  /**
   * A configured provider instance, e.g. `new aws.Provider("use1", { region: "us-east-1" })`. Children of a
   * component inherit the component's. Changing where the object lives (its settings) replaces it.
   */
  provider?: ProviderInstance;
}

/** `dependsOn` as a list (it may be given as one item). */
export function dependsOnList(d: ResourceOptions["dependsOn"]): readonly Dependable[] {
  return d === undefined ? [] : Array.isArray(d) ? d : [d as Dependable];
}

function parentTypes(n: ResourceNode | undefined): string[] {
  const out: string[] = [];
  for (let p = n; p; p = p.parent) out.unshift(p.type);
  return out;
}

/** @internal Builds the internal node for a resource (or wait) being declared and registers it with the current evaluation. */
export function registerNode(
  kind: ResourceNode["kind"],
  type: string,
  name: string,
  inputs: Record<string, unknown>,
  opts: ResourceOptions,
  definition: ResourceDefinition | undefined,
  /** The name inside the URN, when it differs from the display name (unnamed waits). */
  urnName: string = name,
  waitSpec?: WaitNodeSpec,
): ResourceNode {
  if (typeof name !== "string" || name.length === 0) throw new Error(`A ${type} resource needs a non-empty name (got ${JSON.stringify(name)}).`);
  const ctx = currentContext(kind === "wait" ? `The wait ${name}` : `${kind === "component" ? "Component" : "Resource"} "${name}" (${type})`);
  const parent = opts.parent?.[NODE];
  const urn = makeUrn({ stack: ctx.stack, project: ctx.project, parentTypes: parentTypes(parent), type, name: urnName });
  const deps = new Set<ResourceNode>();
  collectResources(inputs, deps);
  const dependsOn = dependsOnList(opts.dependsOn);
  for (const d of dependsOn) {
    if (!d || !(d as Dependable)[NODE]) throw new Error(`dependsOn of "${name}" (${type}) must list resources or waits; got ${String(d)}.`);
    deps.add((d as Dependable)[NODE]);
  }
  const aliases = (opts.aliases ?? []).map((a): Urn => {
    if (typeof a === "string") return a as Urn;
    const aliasParent = a.parent === undefined ? parent : a.parent === null ? undefined : a.parent[NODE];
    return makeUrn({
      stack: a.stack ?? ctx.stack,
      project: a.project ?? ctx.project,
      parentTypes: parentTypes(aliasParent),
      type: a.type ?? type,
      name: a.name ?? name,
    });
  });
  const node: ResourceNode = {
    kind, urn, type, name, inputs, definition, parent, children: [], deps,
    protect: opts.protect ?? false,
    retainOnDelete: opts.retainOnDelete ?? false,
    deleteBeforeReplace: opts.deleteBeforeReplace ?? false,
    ignoreChanges: opts.ignoreChanges ?? [],
    replaceOnChanges: opts.replaceOnChanges ?? [],
    aliases,
    customTimeouts: opts.customTimeouts ?? {},
  };
  if (waitSpec) node.wait = waitSpec;
  const provider = opts.provider ?? parent?.provider;
  if (provider) {
    const pkg = type.split(":")[0];
    if (kind === "component" || kind === "wait" || provider.package === pkg) node.provider = provider;
    else if (opts.provider) {
      throw new Error(`"${name}" (${type}) was given the ${provider.package} provider "${provider.name}", which cannot manage ${pkg} resources: pass a ${pkg} provider, or none.`);
    }
  }
  ctx.register(node);
  parent?.children.push(node);
  return node;
}

/** The output for one attribute of a resource, created on first use and cached on the node. */
export function attributeOutput(node: ResourceNode, name: string): Output<unknown> {
  const cache = ((node as { attrCache?: Map<string, Output<unknown>> }).attrCache ??= new Map());
  let o = cache.get(name);
  if (!o) {
    o = new Output([node], (r: Resolver) => r.attribute(node, name));
    cache.set(name, o);
  }
  return o;
}

/**
 * The base of everything a program declares. Subclasses: {@link CustomResource} (a cloud object with an id)
 * and {@link ComponentResource} (a group of children).
 */
export abstract class Resource implements Dependable {
  /** @internal */
  readonly [NODE]: ResourceNode;

  /** @internal */
  constructor(
    kind: ResourceNode["kind"],
    type: string,
    name: string,
    inputs: Record<string, unknown>,
    opts: ResourceOptions,
    definition: ResourceDefinition | undefined,
  ) {
    this[NODE] = registerNode(kind, type, name, inputs, opts, definition);
  }

  /** The resource's stable identity (known at once). */
  get urn(): Output<string> {
    const urn = this[NODE].urn;
    return new Output([], () => of({ known: true, value: urn as string, secret: false, deps: [] }));
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
  /** @internal */
  constructor(type: string, name: string, inputs: Record<string, unknown>, opts: ResourceOptions, definition: ResourceDefinition, kind: "custom" | "lookup" = "custom") {
    super(kind, type, name, inputs, opts, definition);
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
    super("component", type, name, {}, opts, undefined);
  }
}

/** Reads a resource's URN without an Output (for tests and tools). */
export function urnOf(r: Dependable): Urn {
  return r[NODE].urn;
}


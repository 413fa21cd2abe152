import type { Provider } from "../provider/provider.js";
import type { ResourceSchema } from "../provider/schema.js";
import { CustomResource, NODE, attributeOutput, type ResourceOptions } from "./resource.js";
import { userCallSite } from "../core/declaration-site.js";
import { DistinctNodes } from "./distinct-nodes.js";
import { collectResources, isOutput, type Input, type Inputs, type Output } from "./output.js";
import type { LookupNode, ResourceDefinition } from "./node.js";
import { registerDefinition } from "./registry.js";
import { isPredicate } from "../core/predicate.js";
import { UserError } from "../core/diagnostic.js";

/** Every output attribute of a resource as a typed Output. */
export type OutputProps<O> = { readonly [K in keyof O]-?: Output<O[K]> };

/** An instance of a type made by {@link defineResource}: its outputs as typed Outputs, plus the type's methods. */
export type ResourceInstance<O, M = unknown> = CustomResource & OutputProps<Omit<O, "id" | "urn">> & M;

/** A lookup query whose values may come from other resources. */
export type LookupQuery<Q> = { [K in keyof Q]: Input<Q[K]> };

/** The class `defineResource` returns: construct it to declare a resource; `get` reads an existing one. */
export interface ResourceClass<I, O, Q = never, M = unknown> {
  new (name: string, inputs: { [K in keyof I]: Inputs<I[K]> }, opts?: ResourceOptions): ResourceInstance<O, M>;
  /**
   * Reads an existing object without managing it (a `<= read` step): the program can use its
   * attributes, and Cairn never changes or deletes it. Give its id, or a query when the type's provider
   * supports lookups (e.g. `HostedZone.get("zone", { name: "example.dev" })`).
   */
  get(name: string, id: Input<string> | LookupQuery<Q>, opts?: ResourceOptions): ResourceInstance<O, M>;
  /** The type token, e.g. `local:File`. */
  readonly type: string;
  /** @internal */
  readonly definition: ResourceDefinition;
}

const RESERVED = new Set(["id", "urn", "constructor"]);

/**
 * Defines a resource type from a provider (and optionally a schema). This is the one mechanism behind
 * built-in, AWS, mock and user-defined types.
 *
 * @example
 * interface In { text: string }
 * interface Out { text: string; length: number }
 * const Note = defineResource<In, Out>("demo:Note", {
 *   provider: {
 *     async create({ inputs }) { return { id: inputs.text, outputs: { text: inputs.text, length: inputs.text.length } }; },
 *     async read({ outputs }) { return outputs; },
 *     async delete() {},
 *   },
 *   schema: { inputs: { text: { type: "string", forceNew: true } } },
 * });
 * const n = new Note("n", { text: "hello" }); // n.length: Output<number>
 */
export function defineResource<I extends object, O extends object = I, Q = never, M extends object = {}>(
  type: string,
  def: {
    provider: Provider<I, O, Q>;
    schema?: ResourceSchema;
    /** Methods every instance gets (helpers over its outputs), e.g. `cert.validationRecordFor(domain)`. */
    methods?: M & ThisType<ResourceInstance<O, M>>;
    /** Completes the inputs of each declared resource when it is declared, from its provider instance and the stack config (e.g. default tags). */
    prepareInputs?: ResourceDefinition["prepareInputs"];
  },
): ResourceClass<I, O, Q, M> {
  checkDefinition(type, def.schema);
  const definition: ResourceDefinition = { type, provider: def.provider as Provider<any, any, any>, schema: def.schema };
  if (def.prepareInputs) definition.prepareInputs = def.prepareInputs;
  registerDefinition(definition);
  const attrs = new Set([...Object.keys(def.schema?.outputs ?? {}), ...Object.keys(def.schema?.inputs ?? {})]);
  const hasSchema = def.schema?.outputs !== undefined;

  class Defined extends CustomResource {
    static readonly type = type;
    static readonly definition = definition;

    constructor(name: string, inputs: Record<string, unknown>, opts: ResourceOptions = {}, kind: "custom" | "lookup" = "custom") {
      // The user's call site is found here, before `super`: from the base constructor V8 walks two more
      // (derived-constructor) frames to reach it, a cost every resource would pay.
      super(type, name, inputs ?? {}, opts, definition, kind, userCallSite(new.target) ?? null);
      if (!hasSchema) {
        // Without a schema the attribute names are only known to the type checker: answer any of them.
        return new Proxy(this, {
          get(target, prop, receiver) {
            if (typeof prop === "symbol" || prop in target) return Reflect.get(target, prop, receiver);
            return attributeOutput(target[NODE], prop);
          },
        });
      }
    }

    static get(name: string, id: Input<string> | Record<string, Input<unknown>>, opts: ResourceOptions = {}): unknown {
      const r = new Defined(name, {}, opts, "lookup");
      const query = id !== null && typeof id === "object" && !isOutput(id) && !(id instanceof Promise);
      if (query && !def.provider.lookup) {
        throw new UserError(`${type}.get("${name}", …): this type can only be looked up by id (a string), not by a query.`);
      }
      (r[NODE] as LookupNode).lookupId = id;
      // The id (or query) is an input of the lookup: the resources it comes from are dependencies.
      const deps = new DistinctNodes();
      for (const d of r[NODE].deps) deps.add(d);
      collectResources(id, deps);
      r[NODE].deps = deps.list();
      return r;
    }
  }
  addMembers(Defined, type, attrs, def.methods ?? {});
  return Defined as unknown as ResourceClass<I, O, Q, M>;
}

/** Refuses a type token or schema that cannot work, naming the type and what to write instead. */
function checkDefinition(type: string, schema: ResourceSchema | undefined): void {
  if (!/^[A-Za-z0-9_.-]+(:[A-Za-z0-9_.-]+)+$/.test(type)) {
    throw new UserError(`Invalid resource type "${type}": use a token like "pkg:module:Type" (letters, digits, ., _, - separated by ":").`);
  }
  const failWhen = schema?.wait?.failWhen;
  if (failWhen !== undefined && !isPredicate(failWhen)) {
    throw new UserError(`The schema of ${type} has a wait.failWhen that is not a predicate: build it with predicate data such as { op: "in", path: ["status"], values: ["FAILED"] }.`);
  }
}

/** Gives a defined class its name, its methods, and a getter per schema attribute returning that attribute's `Output`. */
function addMembers(Defined: new (...args: never[]) => CustomResource, type: string, attrs: ReadonlySet<string>, methods: object): void {
  for (const [key, fn] of Object.entries(methods)) {
    if (RESERVED.has(key) || attrs.has(key)) throw new UserError(`${type}: method "${key}" clashes with an attribute or reserved name.`);
    Object.defineProperty(Defined.prototype, key, { value: fn, enumerable: false, configurable: true, writable: true });
  }
  Object.defineProperty(Defined, "name", { value: type.split(":").pop() });
  for (const key of attrs) {
    if (RESERVED.has(key)) continue;
    Object.defineProperty(Defined.prototype, key, {
      get(this: CustomResource) {
        return attributeOutput(this[NODE], key);
      },
      enumerable: false,
      configurable: true,
    });
  }
}

import type { Provider } from "../provider/provider.js";
import type { ResourceSchema } from "../provider/schema.js";
import { CustomResource, NODE, attributeOutput, type ResourceOptions } from "./resource.js";
import type { Input, Inputs, Output } from "./output.js";
import type { ResourceDefinition } from "./node.js";
import { registerDefinition } from "../provider/registry.js";
import { isPredicate } from "../wait/predicate.js";

/** Every output attribute of a resource as a typed Output. */
export type OutputProps<O> = { readonly [K in keyof O]-?: Output<O[K]> };

/** An instance of a type made by {@link defineResource}. */
export type ResourceInstance<O> = CustomResource & OutputProps<Omit<O, "id" | "urn">>;

/** The class `defineResource` returns: construct it to declare a resource; `get` reads an existing one. */
export interface ResourceClass<I, O> {
  new (name: string, inputs: { [K in keyof I]: Inputs<I[K]> }, opts?: ResourceOptions): ResourceInstance<O>;
  /**
   * Reads an existing object by id without managing it (a `<= read` step): the program can use its
   * attributes, and Cairn never changes or deletes it.
   */
  get(name: string, id: Input<string>, opts?: ResourceOptions): ResourceInstance<O>;
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
export function defineResource<I extends object, O extends object = I>(
  type: string,
  def: { provider: Provider<I, O>; schema?: ResourceSchema },
): ResourceClass<I, O> {
  if (!/^[A-Za-z0-9_.-]+(:[A-Za-z0-9_.-]+)+$/.test(type)) {
    throw new Error(`Invalid resource type "${type}": use a token like "pkg:module:Type" (letters, digits, ., _, - separated by ":").`);
  }
  const failWhen = def.schema?.wait?.failWhen;
  if (failWhen !== undefined && !isPredicate(failWhen)) {
    throw new Error(`The schema of ${type} has a wait.failWhen that is not a predicate: build it with predicate data such as { op: "in", path: ["status"], values: ["FAILED"] }.`);
  }
  const definition: ResourceDefinition = { type, provider: def.provider as Provider<any, any>, schema: def.schema };
  registerDefinition(definition);
  const attrs = new Set([...Object.keys(def.schema?.outputs ?? {}), ...Object.keys(def.schema?.inputs ?? {})]);
  const hasSchema = def.schema?.outputs !== undefined;

  class Defined extends CustomResource {
    static readonly type = type;
    static readonly definition = definition;

    constructor(name: string, inputs: Record<string, unknown>, opts: ResourceOptions = {}, kind: "custom" | "lookup" = "custom") {
      super(type, name, inputs ?? {}, opts, definition, kind);
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

    static get(name: string, id: Input<string>, opts: ResourceOptions = {}): unknown {
      const r = new Defined(name, {}, opts, "lookup");
      r[NODE].lookupId = id;
      // The id is an input of the lookup: if it comes from another resource, that is a dependency.
      if (id && typeof id === "object" && "resources" in id) for (const n of (id as Output<string>).resources) r[NODE].deps.add(n);
      return r;
    }
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
  return Defined as unknown as ResourceClass<I, O>;
}

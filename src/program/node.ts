import type { Urn } from "../core/urn.js";
import type { Provider, ProviderInstance } from "../provider/provider.js";
import type { ResourceSchema } from "../provider/schema.js";
import type { Duration } from "../core/duration.js";
import type { Predicate } from "../core/predicate.js";
import type { ConfigValue } from "./config-value.js";
import type { DeclarationSite } from "../core/declaration-site.js";

/** A resource type as the engine sees it: its token, provider and schema. One mechanism for every type. */
export interface ResourceDefinition {
  type: string;
  provider: Provider<any, any, any>;
  schema?: ResourceSchema;
  /**
   * Completes a resource's inputs when it is declared, from its provider instance and the stack's config
   * (e.g. default tags), so plans show what will be sent.
   */
  prepareInputs?: (inputs: Record<string, unknown>, env: PrepareEnv) => Record<string, unknown>;
}

/** What a type's `prepareInputs` (see {@link defineResource}) may read: the provider instance and the stack config. */
export interface PrepareEnv {
  /** The provider instance the resource uses (its own, its parent's, or the stack's default). */
  provider: ProviderInstance | undefined;
  /** The stack's config values, by key. */
  config: Readonly<Record<string, ConfigValue>>;
}

/** Time budgets for provider operations. */
export interface CustomTimeouts {
  create?: Duration;
  update?: Duration;
  delete?: Duration;
}

/** What every recorded node has: identity, place in the tree, and what it needs first. */
interface NodeBase {
  /**
   * @internal Its place in its evaluation's list of nodes (`EvalContext.nodes`), -1 until it is registered:
   * tables of a value per node (`NodeTable`) are arrays by it.
   */
  index: number;
  /**
   * @internal The attribute outputs made so far (`cert.arn`; see attribute-output.ts), made with the node so
   * setting it later adds no second array for the node's properties.
   */
  attributes: object | undefined;
  urn: Urn;
  type: string;
  name: string;
  parent: ResourceNode | undefined;
  children: ResourceNode[];
  /**
   * Nodes this one needs first, each once: from input values and `dependsOn` (components expanded by the
   * graph). A list, not a set: most nodes have none or a few, and a set per node costs ~190 bytes.
   */
  deps: readonly ResourceNode[];
  /** The configured provider instance (`opts.provider`, else the parent's); absent for the package default. */
  provider?: ProviderInstance;
  /** Where the user's program declared it (`infra.ts:12:3`), for messages; undefined when no user frame was found. */
  site: DeclarationSite | undefined;
  /** Set when an `apply` callback declared it: the value that callback ran on (its resources' URNs, and its name). */
  declaredIn?: { on: Urn[]; waitsFor: string };
  /**
   * `dependsOn` entries that are outputs (of resources a callback declares): resolved while planning, each
   * adds the resources it holds as dependencies (or defers this node while it is unknown).
   */
  dependsOnValues?: readonly unknown[];
}

/** The options of a managed resource, validated when it is declared. */
export interface ManagedOptions {
  protect: boolean;
  retainOnDelete: boolean;
  /** A replace may delete the old object's data (`allowDataLoss`). */
  allowDataLoss: boolean;
  deleteBeforeReplace: boolean;
  /** Input attributes whose changes are ignored (`"*"`: all of them). */
  ignoreChanges: readonly string[];
  replaceOnChanges: readonly string[];
  /** Values (outputs, resources) whose change replaces this resource. */
  replaceTriggeredBy: readonly unknown[];
  /** Earlier URNs of this resource: state found under one of them is moved, not recreated. */
  aliases: readonly Urn[];
  customTimeouts: CustomTimeouts;
  /** The id of an existing object to adopt instead of creating one. */
  import: string | undefined;
  /** `autoName`: undefined follows the program's setting. */
  autoName: boolean | undefined;
}

/** `new SomeType(name, inputs, opts)`: a cloud object Cairn manages. */
export interface CustomNode extends NodeBase {
  kind: "custom";
  definition: ResourceDefinition;
  /** Raw inputs as written (may hold outputs and promises). */
  inputs: Record<string, unknown>;
  options: ManagedOptions;
}

/** `SomeType.get(name, idOrQuery)`: an existing object read, never managed. */
export interface LookupNode extends NodeBase {
  kind: "lookup";
  definition: ResourceDefinition;
  /** The id or query to read (may hold outputs). */
  lookupId: unknown;
}

/** `wait(target, {...})`: a gate on a fresh read of its target; never stored in state. */
export interface WaitNode extends NodeBase {
  kind: "wait";
  /** The definition of the resource at the end of the chain of waits (whose provider reads it). */
  definition: ResourceDefinition | undefined;
  wait: WaitNodeSpec;
}

/** A `ComponentResource`: groups children; not a node of the graph itself. */
export interface ComponentNode extends NodeBase {
  kind: "component";
}

/**
 * What evaluation records for one `new Resource(...)`, `Type.get(...)`, `wait(...)` or component: plain data
 * the graph, planner and executor read. Users never see it; `Resource` objects point at it.
 */
export type ResourceNode = CustomNode | LookupNode | WaitNode | ComponentNode;

/** The nodes the graph orders (components are expanded away). */
export type GraphNode = CustomNode | LookupNode | WaitNode;

/** What `wait(target, {...})` records: plain data the planner and executor read. */
export interface WaitNodeSpec {
  /** The resource, lookup or wait waited on. */
  target: GraphNode;
  /** The target's name, as predicates print it (`cert`). */
  subject: string;
  /** True when the user gave the wait a name (`name: "issued"`); otherwise it shows as `wait(cert)`. */
  named: boolean;
  until: Predicate;
  /** The user's failure condition; when absent, the target type's default failure states apply. */
  failWhen?: Predicate;
  timeout?: Duration;
  interval?: Duration;
}

import type { Urn } from "./urn.js";
import type { Provider, ProviderInstance } from "../provider/provider.js";
import type { ResourceSchema } from "../provider/schema.js";
import type { Duration } from "./duration.js";
import type { Predicate } from "../wait/predicate.js";

/** A resource type as the engine sees it: its token, provider and schema. One mechanism for every type. */
export interface ResourceDefinition {
  type: string;
  provider: Provider<any, any, any>;
  schema?: ResourceSchema;
}

/** Time budgets for provider operations. */
export interface CustomTimeouts {
  create?: Duration;
  update?: Duration;
  delete?: Duration;
}

/**
 * What evaluation records for one `new Resource(...)`, `Type.get(...)` or component: plain data the
 * graph, planner and executor read. Users never see it; `Resource` objects point at it.
 */
export interface ResourceNode {
  kind: "custom" | "component" | "lookup" | "wait";
  urn: Urn;
  type: string;
  name: string;
  /** Raw inputs as written (may hold outputs and promises). For lookups: the query. */
  inputs: Record<string, unknown>;
  definition: ResourceDefinition | undefined;
  parent: ResourceNode | undefined;
  children: ResourceNode[];
  /** Resources this one needs first: from input values and `dependsOn` (components expanded later). */
  deps: Set<ResourceNode>;
  /** For lookups: the id to read. */
  lookupId?: unknown;
  protect: boolean;
  retainOnDelete: boolean;
  deleteBeforeReplace: boolean;
  ignoreChanges: readonly string[];
  replaceOnChanges: readonly string[];
  /** Earlier URNs of this resource: state found under one of them is moved, not recreated. */
  aliases: readonly Urn[];
  customTimeouts: CustomTimeouts;
  /** The configured provider instance (`opts.provider`, else the parent's); absent for the package default. */
  provider?: ProviderInstance;
  /** For waits: what to wait for. */
  wait?: WaitNodeSpec;
}

/** What `wait(target, {...})` records: plain data the planner and executor read. */
export interface WaitNodeSpec {
  /** The resource, lookup or wait waited on. */
  target: ResourceNode;
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

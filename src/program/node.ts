import type { Urn } from "./urn.js";
import type { Provider } from "../provider/provider.js";
import type { ResourceSchema } from "../provider/schema.js";
import type { Duration } from "./duration.js";

/** A resource type as the engine sees it: its token, provider and schema. One mechanism for every type. */
export interface ResourceDefinition {
  type: string;
  provider: Provider<any, any>;
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
  kind: "custom" | "component" | "lookup";
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
}

/**
 * Names the planner fills in for objects whose type names them (`ResourceSchema.autoName`) when the program
 * leaves the name out: chosen once, when the object is planned for creation (so the plan shows it), then
 * kept in state as the program's own input, so later plans see no change. A replacement gets a new name, so
 * the new object never collides with the old one it replaces.
 */
import { createHash } from "node:crypto";
import type { CustomNode } from "../program/node.js";
import type { ResourceSchema } from "../provider/schema.js";
import { SUFFIX_LENGTH, fitName } from "../provider/auto-name.js";
import type { Props } from "../state/types.js";

/**
 * How a planning run names objects: the seed of its random suffixes (fixed by tests, random per stack
 * otherwise) and the program's setting (a resource's `autoName` option wins).
 *
 * @example const naming: AutoNaming = { seed: "test", enabled: true };
 */
export interface AutoNaming {
  seed: string;
  enabled: boolean;
}

/**
 * The random suffix of one object's name: from the seed, the resource's URN and the id of the object it
 * replaces (none for a first create), so a replacement never gets the name of the object it replaces.
 *
 * @example nameSuffix("seed", "urn:cairn:dev::app::aws:sqs:Queue::jobs", "") // 7 hex digits
 */
export function nameSuffix(seed: string, urn: string, replacing: string): string {
  return createHash("sha256").update(`${seed}\n${urn}\n${replacing}`).digest("hex").slice(0, SUFFIX_LENGTH);
}

/** True when the node's objects are named by Cairn: its own option, else the program's setting. */
function enabled(node: CustomNode, naming: AutoNaming | undefined): boolean {
  return naming !== undefined && (node.options.autoName ?? naming.enabled);
}

/**
 * The inputs with the object's name filled in when the program gives none: the name recorded in state for
 * an existing object (whatever the setting now: turning naming off never renames), a new one for an object
 * to create. An existing object recorded without a name (created by the cloud's naming, or imported) keeps
 * having none: naming it now would replace it.
 *
 * @example withAutoName(node, { visibilityTimeout: 30 }, undefined, { seed: "s", enabled: true }) // { visibilityTimeout: 30, queueName: "jobs-1a2b3c4" }
 */
export function withAutoName(node: CustomNode, values: Props, prior: { inputs: Props } | undefined, naming: AutoNaming | undefined): Props {
  const rule = node.definition.schema?.autoName;
  if (!rule || values[rule.input] !== undefined) return values;
  if (prior) return prior.inputs[rule.input] === undefined ? values : { ...values, [rule.input]: prior.inputs[rule.input] };
  if (!enabled(node, naming)) return values;
  const name = fitName(node.name, nameSuffix(naming!.seed, node.urn, ""), rule, values);
  return name === undefined ? values : { ...values, [rule.input]: name };
}

/**
 * The inputs of the object that replaces `replacedId`: a name the program does not give is made anew (or
 * left to the cloud when naming is off), never the replaced object's.
 *
 * @example renamedForReplace(node, news, declared, "q-old", naming).queueName // "jobs-9f8e7d6"
 */
export function renamedForReplace(node: CustomNode, news: Props, declared: Props, replacedId: string, naming: AutoNaming | undefined): Props {
  const rule = node.definition.schema?.autoName;
  if (!rule || declared[rule.input] !== undefined) return news;
  const out = { ...news };
  const name = enabled(node, naming) ? fitName(node.name, nameSuffix(naming!.seed, node.urn, replacedId), rule, news) : undefined;
  if (name === undefined) delete out[rule.input];
  else out[rule.input] = name;
  return out;
}

/**
 * Inputs resolved again at apply (some were unknown when planning) with the name the plan chose kept: the
 * program still gives none, and the plan showed this one.
 *
 * @example withPlannedName({ a: 1 }, { a: UNKNOWN, queueName: "jobs-1a2b3c4" }, schema) // { a: 1, queueName: "jobs-1a2b3c4" }
 */
export function withPlannedName(values: Props, planned: Props, schema: ResourceSchema | undefined): Props {
  const input = schema?.autoName?.input;
  if (input === undefined || values[input] !== undefined || typeof planned[input] !== "string") return values;
  return { ...values, [input]: planned[input] };
}

import type { Graph } from "../graph/graph.js";
import type { CustomNode, ResourceNode } from "../program/node.js";
import type { Urn } from "../core/urn.js";
import { metaOf } from "../plan/context.js";
import { recordFor } from "../apply/record.js";
import { secretKeys as schemaSecretKeys, type ResourceSchema } from "../provider/schema.js";
import type { Props, ResourceState, StackState } from "../state/types.js";
import { thrownMessage } from "../core/thrown.js";
import type { ImportPlan } from "./state-edit.js";
import { CairnError } from "./errors.js";
import { nameOf } from "../core/urn.js";
import { needsResolving } from "../program/output.js";

/**
 * The program's declaration of the resource to import: the managed resource of type `type` whose name
 * (or URN) is `ref`. Refuses when the program does not declare it — an imported object the program does
 * not declare would be deleted by the next `up` — naming what it does declare of that type.
 *
 * @example declaredResource(evaluation.nodes, "local:File", "config").urn
 */
export function declaredResource(nodes: readonly ResourceNode[], type: string, ref: string, program: string): CustomNode {
  const ofType = nodes.filter((n): n is CustomNode => n.kind === "custom" && n.type === type);
  const found = ofType.filter((n) => n.urn === ref || n.name === ref);
  if (found.length === 1) return found[0]!;
  if (found.length > 1) throw new CairnError(`The program "${program}" declares ${found.length} ${type} resources named "${ref}"; give the URN of the one to import:`, found.map((n) => n.urn));
  const others = ofType.map((n) => `"${n.name}"`);
  const declared = others.length ? `It declares these ${type} resources: ${others.join(", ")}.` : `It declares no ${type} resource.`;
  throw new CairnError(
    `The program "${program}" does not declare a ${type} named "${nameOf(ref)}". ${declared} Declare it in the program first (with the inputs the object has), then import: ` +
      `an object in state that the program does not declare would be deleted by the next up.`,
  );
}

/**
 * An adopted object's recorded inputs: what a read reported under `names` (the inputs the program
 * declares), so a program declaring the same values plans no change; and which of its values the schema
 * calls secret.
 *
 * @example readAsInputs({ path: "a.txt", size: 2 }, fileSchema, ["path"]) // { inputs: { path: "a.txt" }, secretKeys: [] }
 */
export function readAsInputs(read: Props, schema: ResourceSchema | undefined, names: readonly string[]): { inputs: Props; secretKeys: string[] } {
  const inputs: Props = {};
  for (const k of names) if (k in read && read[k] !== undefined) inputs[k] = read[k];
  const secret = schemaSecretKeys(schema);
  const secretKeys = [...new Set([...Object.keys(inputs), ...Object.keys(read)])].filter((k) => secret.has(k));
  return { inputs, secretKeys };
}

/**
 * The inputs of the program's declaration known before anything runs (what a read of the object to import
 * is given, so the provider can tell the cloud's defaults from declared values): those that need no other
 * resource's value.
 *
 * @example knownInputs(node) // { bucketName: "logs" } for new Bucket("logs", { bucketName: "logs", tags: other.tags })
 */
export function knownInputs(node: CustomNode): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(node.inputs)) if (v !== undefined && !needsResolving(v)) out[k] = v;
  return out;
}

/**
 * The state record of an imported object: what the provider's read reported as its outputs, and as its
 * inputs only the properties the program declares, with the values read (what the cloud chose for the
 * rest, its defaults, is never an input), so the first plan shows only what the program would change
 * (when a declared value comes from another resource, the record says its inputs are unknown: the first
 * plan reads the object with it); parent, dependencies, provider instance and options as the program
 * declares them.
 *
 * @example importedRecord(node, graph, "out/a.txt", { path: "out/a.txt", content: "hi", size: 2 })
 */
export function importedRecord(node: CustomNode, graph: Graph, id: string, read: Props): ResourceState {
  const declared = Object.keys(node.inputs).filter((k) => node.inputs[k] !== undefined);
  const { inputs, secretKeys } = readAsInputs(read, node.definition.schema, declared);
  const meta = metaOf(node, graph.deps.get(node) ?? [], graph, undefined);
  const record = recordFor(node.urn as Urn, node.type, meta, { id, inputs, outputs: read, secretKeys });
  // A declared value known only from another resource was not given to the read, so the read could not
  // tell what in it is the cloud's: the first plan reads the object again with every input known.
  if (declared.some((k) => needsResolving(node.inputs[k]))) record.inputsUnknown = true;
  return record;
}

/** What importing one object needs: the declared resource, the program's graph, and how to read the object. */
export interface ImportRequest {
  node: CustomNode;
  graph: Graph;
  type: string;
  id: string;
  /** Reads the object through its type's provider; undefined when no provider of the type is loaded. */
  read: (() => Promise<Props | undefined>) | undefined;
}

/**
 * The state change that adopts an existing object as a declared resource (`state import`), refused when
 * the resource or the object is in state already, no provider serves the type, or nothing has that id.
 *
 * @example const plan = await planImport(state, { node, graph, type: "aws:s3:Bucket", id: "logs", read });
 */
export async function planImport(state: StackState, r: ImportRequest): Promise<ImportPlan> {
  const { node, type, id } = r;
  const existing = state.resources[node.urn];
  if (existing) throw new CairnError(`${node.urn} is already in state (id ${existing.id}); nothing was imported. \`state rm\` it first to adopt another object in its place (the object it names stays in the cloud).`);
  const twin = Object.values(state.resources).find((x) => x.type === type && x.id === id);
  if (twin) throw new CairnError(`The ${type} "${id}" is already in state as ${twin.urn}; nothing was imported (one object, one record). \`state mv\` that record to rename it.`);
  if (!r.read) throw new CairnError(`No provider for type ${type} is loaded; nothing was imported.`);
  let read: Props | undefined;
  try {
    read = await r.read();
  } catch (e) {
    throw new CairnError(`Reading ${type} "${id}" failed: ${thrownMessage(e, `the provider of ${type}`)}; nothing was imported.`);
  }
  if (read === undefined) throw new CairnError(`There is no ${type} with id "${id}" (its provider found nothing); nothing was imported. Check the id.`);
  const record = importedRecord(node, r.graph, id, read);
  return { record, mutations: [{ kind: "upsert", resource: record }] };
}

import { createHash } from "node:crypto";
import type { Graph } from "../graph/graph.js";
import type { CustomNode, GraphNode } from "../program/node.js";
import { isOutput } from "../program/output.js";
import { formatPredicate } from "../core/predicate.js";

const NODE_KEY = Symbol.for("cairn.node");

/** An input as text: plain data as JSON, outputs and promises by what they come from (their values may be unknown yet). */
function describe(v: unknown): unknown {
  if (isOutput(v)) return { $output: v.resources.map((n) => n.urn) };
  if (v instanceof Promise) return { $promise: true };
  if (v !== null && typeof v === "object") {
    const node = (v as Record<symbol, unknown>)[NODE_KEY] as GraphNode | undefined;
    if (node) return { $resource: node.urn };
    if (Array.isArray(v)) return v.map(describe);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, describe(x)]));
  }
  return typeof v === "number" && !Number.isFinite(v) ? String(v) : v;
}

/** Plain data as JSON; anything holding outputs, promises or resources described first. */
function json(v: unknown): string {
  return JSON.stringify(plain(v) ? v : describe(v)) ?? "null";
}

/** True when `v` is plain JSON-able data (no output, promise or resource inside). */
function plain(v: unknown): boolean {
  if (v === null || typeof v !== "object") return typeof v !== "number" || Number.isFinite(v);
  if (isOutput(v) || v instanceof Promise || (v as Record<symbol, unknown>)[NODE_KEY]) return false;
  if (Array.isArray(v)) return v.every(plain);
  for (const k in v) if (!plain((v as Record<string, unknown>)[k])) return false;
  return true;
}

/** The options of a managed resource as text; "" for the defaults (nearly every resource). */
function optionsText(o: CustomNode["options"]): string {
  const plainDefaults =
    !o.protect && !o.retainOnDelete && !o.allowDataLoss && !o.deleteBeforeReplace && !o.ignoreChanges.length && !o.replaceOnChanges.length &&
    !o.aliases.length && !o.replaceTriggeredBy.length && o.import === undefined && o.autoName === undefined && Object.keys(o.customTimeouts).length === 0;
  if (plainDefaults) return "";
  return `${json([o.protect, o.retainOnDelete, o.deleteBeforeReplace, o.ignoreChanges, o.replaceOnChanges, o.aliases, o.customTimeouts, o.import ?? null, ...(o.autoName === undefined ? [] : [o.autoName]), ...(o.allowDataLoss ? ["allowDataLoss"] : [])])}\u0001${json(o.replaceTriggeredBy)}`;
}

/** One node as a line of text: kind, URN, dependencies, provider, then what its kind declares. */
function nodeLine(n: GraphNode, graph: Graph): string {
  const deps = graph.deps.get(n);
  const depText = deps && deps.length ? (deps.length === 1 ? deps[0]!.urn : deps.map((d) => d.urn).join(",")) : "";
  const head = `${n.kind}\u0001${n.urn}\u0001${depText}\u0001${n.provider ? json([n.provider.name, n.provider.settings]) : ""}`;
  switch (n.kind) {
    case "custom":
      return `${head}\u0001${json(n.inputs)}\u0001${optionsText(n.options)}`;
    case "lookup":
      return `${head}\u0001${json(n.lookupId)}`;
    case "wait": {
      const w = n.wait;
      return `${head}\u0001${formatPredicate(w.until, w.subject)}\u0001${w.failWhen ? formatPredicate(w.failWhen, w.subject) : ""}\u0001${w.timeout ?? ""}\u0001${w.interval ?? ""}`;
    }
    default: {
      const never: never = n;
      return String(never);
    }
  }
}

/**
 * A hash of what a program declared: every node with its options, dependencies and plain input values
 * (values known only at apply are described by where they come from), the stack outputs and the config.
 * A saved plan carries it, and `up --plan` refuses to apply a plan to a program that declares otherwise.
 *
 * @example fingerprint(graph, evaluation.outputs, config) // "9f2c…"
 */
export function fingerprint(graph: Graph, outputs: Record<string, unknown>, config: Readonly<Record<string, unknown>>): string {
  const h = createHash("sha256");
  // One update for all of it: hashing is fast, many small calls are not.
  h.update(graph.order.map((n) => nodeLine(n, graph)).join("\n"));
  h.update(`\n${json(outputs)}\n`);
  h.update(JSON.stringify(Object.entries(config).sort(([a], [b]) => a.localeCompare(b))));
  return h.digest("hex").slice(0, 32);
}

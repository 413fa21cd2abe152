import { createHash } from "node:crypto";
import type { Graph } from "../graph/graph.js";
import type { GraphNode } from "../program/node.js";
import { isOutput } from "../program/output.js";
import { formatPredicate } from "../wait/predicate.js";

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

function nodeFacts(n: GraphNode, graph: Graph): unknown {
  const base = { kind: n.kind, urn: n.urn, deps: (graph.deps.get(n) ?? []).map((d) => d.urn), provider: n.provider ? [n.provider.name, n.provider.settings] : null };
  switch (n.kind) {
    case "custom": {
      const { replaceTriggeredBy, ...o } = n.options;
      return { ...base, inputs: describe(n.inputs), options: { ...o, replaceTriggeredBy: describe(replaceTriggeredBy) } };
    }
    case "lookup":
      return { ...base, lookup: describe(n.lookupId) };
    case "wait":
      return { ...base, until: formatPredicate(n.wait.until, n.wait.subject), failWhen: n.wait.failWhen ? formatPredicate(n.wait.failWhen, n.wait.subject) : null, timeout: n.wait.timeout ?? null, interval: n.wait.interval ?? null };
    default: {
      const never: never = n;
      return never;
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
  for (const n of graph.order) h.update(JSON.stringify(nodeFacts(n, graph))).update("\n");
  h.update(JSON.stringify(describe(outputs))).update("\n");
  h.update(JSON.stringify(Object.entries(config).sort(([a], [b]) => a.localeCompare(b))));
  return h.digest("hex").slice(0, 32);
}

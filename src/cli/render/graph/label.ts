import type { GraphNode } from "../../../plan/picture/model.js";

/** What text passes through before it is drawn: the run's secret redaction. */
export type Redact = (text: string) => string;

/**
 * A node's label lines: its name, its type, then its notes (a wait's predicate, a step's kind), each
 * passed through `redact` (a predicate may quote a value).
 *
 * @example labelLines(node, (t) => t) // ["db", "aws:rds:DBInstance", "+ create"]
 */
export function labelLines(n: GraphNode, redact: Redact): string[] {
  return [n.name, n.type, ...n.notes].map(redact);
}

import { Output, type Resolution, type Resolver } from "./output.js";
import type { ResourceNode } from "./node.js";
import { NO_NODES } from "./distinct-nodes.js";

/**
 * The output of one attribute of a resource (`cert.arn`), made on its first use. Its node keeps the ones made
 * so far in a list (most nodes have one or two read: their id, their ARN): no map per node, and no closure
 * per output, which the apply keeps as long as the inputs that hold it.
 */
class AttributeOutput extends Output<unknown> {
  constructor(
    readonly node: ResourceNode,
    readonly attribute: string,
    /** The output of the attribute read before this one, if any. */
    readonly next: AttributeOutput | undefined,
  ) {
    super(NO_NODES, readAttribute);
  }

  // Made when asked (while declaring what reads it): a list per output was kept for each one read.
  override get resources(): readonly ResourceNode[] {
    return [this.node];
  }

  // Made when a message needs it: a label per output was a string kept for each one read.
  override get label(): string {
    return `${this.node.name}.${this.attribute}`;
  }
}

/** An attribute output's source: `Output.settle` calls it as a method, so `this` is the output. */
function readAttribute(this: AttributeOutput, r: Resolver): Resolution<unknown> {
  return r.peekAttribute?.(this.node, this.attribute) ?? r.attribute(this.node, this.attribute);
}

/** Where a node keeps its attribute outputs (never in state, plans or fingerprints: they read nodes, not this). */
type WithAttributes = ResourceNode & { attributes?: AttributeOutput };

/**
 * The output for one attribute of a resource, made on first use and kept on the node (the same one each time).
 *
 * @example attributeOutput(node, "arn") === attributeOutput(node, "arn") // true
 */
export function attributeOutput(node: ResourceNode, name: string): Output<unknown> {
  const n = node as WithAttributes;
  for (let o = n.attributes; o; o = o.next) if (o.attribute === name) return o;
  return (n.attributes = new AttributeOutput(node, name, n.attributes));
}

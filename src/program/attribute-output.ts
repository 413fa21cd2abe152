import { OutputBase, type Output, type Resolution, type Resolver } from "./output.js";
import type { ResourceNode } from "./node.js";
import { NO_NODES } from "./distinct-nodes.js";

/**
 * The output of one attribute of a resource (`cert.arn`), made on its first use. Its node keeps the ones made
 * so far in a list (most nodes have one or two read: their id, their ARN): no map per node, and no closure
 * per output, which the apply keeps as long as the inputs that hold it. Its state is in #fields, which are not
 * properties: a field of the value named `node` or `next` is lifted like any other (`db.endpoint.next`).
 */
class AttributeOutput extends OutputBase<unknown> {
  readonly #node: ResourceNode;
  readonly #attribute: string;
  /** The output of the attribute read before this one, if any. */
  readonly #next: AttributeOutput | undefined;

  constructor(node: ResourceNode, attribute: string, next: AttributeOutput | undefined) {
    super(NO_NODES, AttributeOutput.read);
    this.#node = node;
    this.#attribute = attribute;
    this.#next = next;
  }

  /** An attribute output's source: `Output.resolveNow` calls it as a method, so `this` is the output. */
  private static read(this: AttributeOutput, r: Resolver): Resolution<unknown> {
    return r.peekAttribute?.(this.#node, this.#attribute) ?? r.attribute(this.#node, this.#attribute);
  }

  /** The one for `name` among those made for the node so far, from `first` on. */
  static find(first: AttributeOutput | undefined, name: string): AttributeOutput | undefined {
    for (let o = first; o; o = o.#next) if (o.#attribute === name) return o;
    return undefined;
  }

  // Made when asked (while declaring what reads it): a list per output was kept for each one read.
  override get resources(): readonly ResourceNode[] {
    return [this.#node];
  }

  // Made when a message needs it: a label per output was a string kept for each one read.
  override get label(): string {
    return `${this.#node.name}.${this.#attribute}`;
  }
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
  return (AttributeOutput.find(n.attributes, name) ?? (n.attributes = new AttributeOutput(node, name, n.attributes))) as Output<unknown>;
}

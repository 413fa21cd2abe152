import { defineResource } from "./define.js";
import type { Provider } from "../provider/provider.js";

/** The type token of a stack reference: how `stack graph` and `destroy` find readers in state. */
export const STACK_REFERENCE_TYPE = "cairn:stack:StackReference";

/**
 * What a stack reference records: which stack it reads (where its state lives, without credentials), and
 * the outputs it read, plain and secret apart. The outputs are inputs on purpose: the planner compares them
 * with those recorded by the last run, so an output that changed since makes the reference an `update`
 * that names it, and the resources using it follow.
 */
export interface StackReferenceProps {
  project: string;
  stack: string;
  backend: string;
  values: Record<string, unknown>;
  secretValues: Record<string, unknown>;
}

/**
 * The provider of the built-in type: nothing to create or delete in a cloud. What the plan read is what
 * state records; the read itself happens while planning (see `stackOutputs`), like a lookup's eager read.
 */
const provider: Provider<StackReferenceProps, StackReferenceProps> = {
  async create({ inputs }) {
    return { id: `${inputs.project}/${inputs.stack}`, outputs: inputs };
  },
  async read({ outputs }) {
    return outputs;
  },
  async update({ news }) {
    return news;
  },
  async delete() {
    // Forgetting the reference is all there is to do: the other stack is not touched.
  },
};

/**
 * The built-in resource type behind `stackOutputs`: one record per stack read, in the reader's state.
 *
 * @example new StackReference("network/prod", { project: "network", stack: "prod", backend: "file:///n/.cairn", values, secretValues })
 */
export const StackReference = defineResource<StackReferenceProps, StackReferenceProps>(STACK_REFERENCE_TYPE, {
  provider,
  schema: {
    inputs: { project: { type: "string" }, stack: { type: "string" }, backend: { type: "string" }, values: { type: "object" }, secretValues: { type: "object" } },
    outputs: {
      project: { type: "string", stable: true },
      stack: { type: "string", stable: true },
      backend: { type: "string", stable: true },
      values: { type: "object" },
      secretValues: { type: "object" },
    },
  },
});

import { describe, expect, it } from "vitest";
import type { OutputReader, StoredOutputs } from "../../src/state/backend.js";
import { readStackOutputs } from "../../src/state/read-outputs.js";

const app = { project: "app", stack: "prod" };
const network = { project: "network", stack: "prod" };

/** An output reader and nothing else: any other method a reader of outputs called would be missing. */
function outputReader(stored: StoredOutputs): OutputReader & { closed: number } {
  return {
    stack: "prod",
    project: "network",
    url: "memory://roles",
    closed: 0,
    readOutputs: async () => stored,
    async close() {
      this.closed++;
    },
  };
}

describe("reading another stack's outputs", () => {
  it("needs only an output reader, splits secret outputs from plain ones, and closes the reader", async () => {
    const reader = outputReader({ exists: true, project: "network", outputs: { vpcId: "vpc-1", dbPassword: "s3cret" }, secretOutputs: ["dbPassword"] });
    expect(await readStackOutputs(reader, app, network)).toEqual({ values: { vpcId: "vpc-1" }, secretValues: { dbPassword: "s3cret" } });
    expect(reader.closed).toBe(1);
  });

  it("refuses a stack the output reader does not hold, naming both stacks and the backend", async () => {
    const reader = outputReader({ exists: false, project: "network", outputs: {}, secretOutputs: [] });
    await expect(readStackOutputs(reader, app, network)).rejects.toThrow("stack app/prod reads the outputs of stack network/prod, which does not exist in memory://roles");
    expect(reader.closed).toBe(1);
  });
});

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "vitest";
import { allText, conformance } from "./two-stacks.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-stacks-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("two stacks that feed each other, on the file backend", () => {
  it("app reads network's outputs (secrets stay secret), sees them change, and network's destroy needs --force", async () => {
    await conformance({ stateDir: dir, passphrase: "test-pass" }, "fstacks", () => allText(join(dir, "stacks", "app")));
  });
});

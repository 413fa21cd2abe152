import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Urn } from "../../../../src/core/urn.js";
import { program, type ProgramFn } from "../../../../src/entry/program.js";
import { Provider } from "../../../../src/providers/aws/provider.js";
import { cloudControlType } from "../../../../src/providers/aws/cloudcontrol/define.js";
import { cloudControlProvider } from "../../../../src/providers/aws/cloudcontrol/provider.js";
import { decodeTypeSpec, FLAG, type TypeSpecData } from "../../../../src/providers/aws/cloudcontrol/type-spec.js";
import { renderPlan } from "../../../../src/cli/render/plan.js";
import { serveFakeCloudControl, type ServedFakeCloudControl } from "../../../../src/testing/cloudcontrol/fake-server.js";

/** Shaped after Lex `BotVersion`: the registry gives it create, read, delete and list handlers, no update. */
const DATA = {
  id: ["BotVersion"],
  p: [
    ["BotId", "string", FLAG.required],
    ["Description", "string"],
    ["BotVersion", "string", FLAG.readOnly],
  ],
  reg: { h: "crdl", co: ["BotId"], ro: ["BotVersion"] },
} satisfies TypeSpecData;
const INFO = decodeTypeSpec("Test::Lex::BotVersion", "test:lex:BotVersion", DATA);
const BotVersion = cloudControlType<Record<string, unknown>, Record<string, unknown>>("Test::Lex::BotVersion", "aws:testlex:BotVersion", JSON.stringify(DATA));
const URN = "urn:cairn:dev::app::test:x:X::x" as Urn;

/** Shaped after AppStream `ImageBuilder`: no update handler, identified by the name the program gives. */
const NAMED_DATA = {
  id: ["Name"],
  p: [
    ["Name", "string", FLAG.required],
    ["InstanceType", "string", FLAG.required],
    ["Arn", "string", FLAG.readOnly],
  ],
  reg: { h: "crdl", co: ["Name"], ro: ["Arn"] },
} satisfies TypeSpecData;
const NAMED = decodeTypeSpec("Test::AppStream::ImageBuilder", "test:appstream:ImageBuilder", NAMED_DATA);
const ImageBuilder = cloudControlType<Record<string, unknown>, Record<string, unknown>>("Test::AppStream::ImageBuilder", "aws:testappstream:ImageBuilder", JSON.stringify(NAMED_DATA));

describe("a type Cloud Control cannot update is replaced on any change", () => {
  it("the provider's diff replaces for a change to a property the registry does not call create-only, and says why", async () => {
    const d = await cloudControlProvider(INFO).diff({ urn: URN, id: "1", olds: { botId: "b", description: "a" }, news: { botId: "b", description: "b" }, outputs: {} });
    expect(d).toEqual({ kind: "replace", changed: ["description"], replaceKeys: ["description"], cause: "Test::Lex::BotVersion cannot be updated through Cloud Control" });
  });

  it("one whose declared name stays the same is replaced delete-first (the new object could not exist beside the old)", async () => {
    const d = await cloudControlProvider(NAMED).diff({ urn: URN, id: "ib", olds: { name: "ib", instanceType: "small" }, news: { name: "ib", instanceType: "large" }, outputs: {} });
    expect(d).toMatchObject({ kind: "replace", replaceKeys: ["instanceType"], deleteBeforeReplace: true });
  });

  it("one identified by what the cloud generates is replaced create-first", async () => {
    const d = await cloudControlProvider(INFO).diff({ urn: URN, id: "1", olds: { botId: "b", description: "a" }, news: { botId: "b", description: "b" }, outputs: {} });
    expect(d).not.toHaveProperty("deleteBeforeReplace");
  });

  it("a type with a required property that is create-only and write-only (DataZone DomainIdentifier) is replaced, saying why", async () => {
    const project = decodeTypeSpec("Test::DataZone::Project", "test:datazone:Project", {
      id: ["DomainId", "Id"],
      p: [["DomainIdentifier", "string", FLAG.required], ["Name", "string", FLAG.required], ["Description", "string"], ["DomainId", "string", FLAG.readOnly], ["Id", "string", FLAG.readOnly]],
      reg: { h: "crudl", wo: ["DomainIdentifier"], co: ["DomainIdentifier"], ro: ["DomainId", "Id"] },
    });
    const d = await cloudControlProvider(project).diff({ urn: URN, id: "d|p", olds: { domainIdentifier: "d", name: "p", description: "a" }, news: { domainIdentifier: "d", name: "p", description: "b" }, outputs: {} });
    expect(d).toEqual({
      kind: "replace", changed: ["description"], replaceKeys: ["description"], deleteBeforeReplace: true,
      cause: "Test::DataZone::Project cannot be updated through Cloud Control (its required domainIdentifier is create-only and write-only: no update can carry it)",
    });
  });

  it("no change is still no change", async () => {
    const d = await cloudControlProvider(INFO).diff({ urn: URN, id: "1", olds: { botId: "b", description: "a" }, news: { botId: "b", description: "a" }, outputs: {} });
    expect(d).toEqual({ kind: "same" });
  });

  describe("on the fake", () => {
    let dir: string;
    let fake: ServedFakeCloudControl;
    let aws: Provider;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), "cairn-noupd-"));
      fake = await serveFakeCloudControl({ tracks: {} });
      aws = new Provider(`fake-${Math.random().toString(36).slice(2)}`, { region: "us-east-1", endpoint: fake.endpoint, credentials: { accessKeyId: "x", secretAccessKey: "x" } });
    });
    afterEach(async () => {
      await fake.stop();
      await rm(dir, { recursive: true, force: true });
    });
    const stackOf = (fn: ProgramFn) => program("noupd", fn).stack({ stateDir: dir, passphrase: "p", defaultProviders: { aws } });

    it("a changed description plans a replace whose reason names the type, and up never sends UpdateResource", async () => {
      let description = "first";
      const stack = stackOf(() => void new BotVersion("v", { botId: "bot-1", description }));
      expect((await stack.up()).summary?.ok).toBe(true);
      description = "second";
      const plan = await stack.preview();
      expect(plan.steps.map((s) => s.kind)).toEqual(["replace"]);
      const step = plan.steps[0]!;
      expect(step.kind === "replace" && step.cause).toBe("Test::Lex::BotVersion cannot be updated through Cloud Control");
      expect(renderPlan(plan)).toContain("description changed in the program, and Test::Lex::BotVersion cannot be updated through Cloud Control: the object is replaced");
      expect((await stack.up()).summary?.ok).toBe(true);
      expect(fake.cloud.count("UpdateResource")).toBe(0);
      expect(fake.cloud.objects("Test::Lex::BotVersion").map((o) => o.properties.Description)).toEqual(["second"]);
    });

    it("a named object is replaced delete-first: the up succeeds with one object of that name", async () => {
      let instanceType = "small";
      const stack = stackOf(() => void new ImageBuilder("ib", { name: "ib", instanceType }));
      expect((await stack.up()).summary?.ok).toBe(true);
      instanceType = "large";
      const plan = await stack.preview();
      expect(plan.steps.map((s) => [s.kind, s.kind === "replace" && s.deleteFirst])).toEqual([["replace", true]]);
      expect((await stack.up()).summary?.ok).toBe(true);
      expect(fake.cloud.objects("Test::AppStream::ImageBuilder").map((o) => o.properties)).toMatchObject([{ Name: "ib", InstanceType: "large" }]);
    });
  });
});

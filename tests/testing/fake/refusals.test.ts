import { describe, expect, it } from "vitest";
import { create, DOMAIN, fakeCloud, fnModel, FN, POLICY, run } from "./types.js";

describe("what the fake Cloud Control refuses, as AWS refuses it", () => {
  it("a type Cloud Control cannot provision: UnsupportedActionException for CREATE", async () => {
    const cloud = fakeCloud();
    await expect(cloud.handle("CreateResource", { TypeName: POLICY, DesiredState: "{}" })).rejects.toMatchObject({ name: "UnsupportedActionException", message: `Resource type ${POLICY} does not support CREATE action` });
  });

  it("ListResources of a type without a list handler: UnsupportedActionException for LIST, while GetResource works", async () => {
    const cloud = fakeCloud();
    const id = await create(cloud, DOMAIN, { DomainName: "d1" });
    await expect(cloud.handle("ListResources", { TypeName: DOMAIN })).rejects.toMatchObject({ name: "UnsupportedActionException", message: `Resource type ${DOMAIN} does not support LIST action` });
    await expect(cloud.handle("GetResource", { TypeName: DOMAIN, Identifier: id })).resolves.toBeDefined();
  });

  it("a model the registry schema refuses: the request fails with InvalidRequest and the schema's complaint at its path", async () => {
    const cloud = fakeCloud();
    const bad = async (model: Record<string, unknown>) => {
      const e = await run(cloud, "CreateResource", { TypeName: FN, DesiredState: JSON.stringify(model) });
      expect(e.OperationStatus).toBe("FAILED");
      expect(e.ErrorCode).toBe("InvalidRequest");
      return e.StatusMessage;
    };
    expect(await bad(fnModel({ Settings: { Mode: "Fast" } }))).toBe("Model validation failed (#/Settings/Mode: failed validation constraint for keyword [enum])");
    expect(await bad(fnModel({ MemorySize: "big" }))).toBe("Model validation failed (#/MemorySize: expected type: Integer, found: String)");
    expect(await bad(fnModel({ MemorySize: 64 }))).toBe("Model validation failed (#/MemorySize: failed validation constraint for keyword [minimum])");
    expect(await bad(fnModel({ Role: "not-an-arn" }))).toBe("Model validation failed (#/Role: failed validation constraint for keyword [pattern])");
    expect(await bad(fnModel({ Colour: "red" }))).toBe("Model validation failed (#: extraneous key [Colour] is not permitted)");
    expect(await bad(fnModel({ FunctionName: "x".repeat(70) }))).toBe("Model validation failed (#/FunctionName: expected maxLength: 64, actual: 70)");
    expect(await bad({ FunctionName: "f1", Role: "arn:aws:iam::123456789012:role/r" })).toBe("Model validation failed (#: required key [Code] not found)");
    expect(cloud.objects()).toEqual([]);
  });

  it("never echoes a refused value in its message (only the keyword), as CloudFormation scrubs them", async () => {
    const cloud = fakeCloud();
    const e = await run(cloud, "CreateResource", { TypeName: FN, DesiredState: JSON.stringify(fnModel({ Role: "secret-value-123" })) });
    expect(e.StatusMessage).not.toContain("secret-value-123");
  });
});

import { describe, expect, it } from "vitest";
import { jsonEvent } from "../../src/cli/json/schema.js";
import { local } from "../../src/providers/local/index.js";
import { Queue } from "../../src/providers/aws/services/sqs.js";
import { handlerPermissions } from "../../src/providers/aws/cloudcontrol/permissions.js";
import { programIn, run } from "./harness.js";

describe("preview --permissions", () => {
  it("prints the IAM policy the plan needs on stdout, alone, and the plan on stderr", async () => {
    const { prog } = await programIn("perms", () => {
      new Queue("jobs", { visibilityTimeout: 30 });
      new local.File("note", { path: "out/note.txt", content: "hi" });
    });
    const r = await run(prog, ["preview", "--permissions"]);
    expect(r.code, r.stderr).toBe(0);
    const policy = JSON.parse(r.stdout) as { Version: string; Statement: { Effect: string; Action: string[]; Resource: string }[] };
    const queue = handlerPermissions("AWS::SQS::Queue")!;
    expect(policy).toEqual({
      Version: "2012-10-17",
      Statement: [{
        Effect: "Allow", Resource: "*",
        Action: [...new Set(["cloudformation:CreateResource", "cloudformation:GetResource", "cloudformation:GetResourceRequestStatus", "cloudformation:ListResourceRequests", ...queue.create, ...queue.read])].sort(),
      }],
    });
    expect(r.stderr).toContain("+ create urn:cairn:dev::perms::aws:sqs:Queue::jobs");
    expect(r.stderr).not.toContain("leaves out");
  });

  it("with --refresh or --refresh-only, adds the reads of every object in state", async () => {
    const { prog } = await programIn("perms", () => void new local.File("note", { path: "out/note.txt", content: "hi" }));
    expect((await run(prog, ["up", "--yes"])).code).toBe(0);
    for (const flag of ["--refresh", "--refresh-only"]) {
      const r = await run(prog, ["preview", "--permissions", flag, "--json"]);
      const plan = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.type === "plan")!;
      expect(plan.permissions, flag).toEqual({ policy: { Version: "2012-10-17", Statement: [] }, operations: { "local:File": ["read"] }, unstated: [] });
    }
    const plain = await run(prog, ["preview", "--json"]);
    const plan = plain.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.type === "plan")!;
    expect(plan.permissions).toEqual({ policy: { Version: "2012-10-17", Statement: [] }, operations: {}, unstated: [] });
  });

  it("says on stderr which types it leaves out, because their providers do not say what they need", async () => {
    const { prog } = await programIn("perms", () => void new local.Command("build", { create: "echo hi" }));
    const r = await run(prog, ["preview", "--permissions"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ Version: "2012-10-17", Statement: [] });
    expect(r.stderr).toContain("note: the policy leaves out local:Command: its provider does not say which permissions it needs.");
  });

  it("--json: the plan event carries the policy, the operations by type and the types left out", async () => {
    const { prog } = await programIn("perms", () => void new Queue("jobs", {}));
    const r = await run(prog, ["preview", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const plan = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.type === "plan")!;
    expect(() => jsonEvent.parse(plan)).not.toThrow();
    expect(plan.permissions).toMatchObject({ operations: { "aws:sqs:Queue": ["create"] }, unstated: [], policy: { Statement: [{ Action: expect.arrayContaining(["sqs:CreateQueue"]) }] } });
  });
});

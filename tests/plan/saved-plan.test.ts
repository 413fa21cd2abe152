import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../src/core/unknown.js";
import type { Urn } from "../../src/core/urn.js";
import { PLAN_FORMAT_VERSION, type Plan, type PlanStep } from "../../src/plan/plan.js";
import { readPlanFile, writePlanFile } from "../../src/plan/saved-plan.js";
import { DecryptError } from "../../src/state/secrets.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function planPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "cairn-saved-plan-"));
  dirs.push(dir);
  return join(dir, "plan.json");
}

const urn = (name: string) => `urn:cairn:dev::web::test:Db::${name}` as Urn;
const meta = { deps: [], protect: false, retainOnDelete: false };

function planOf(steps: PlanStep[], over: Partial<Plan> = {}): Plan {
  return {
    version: PLAN_FORMAT_VERSION, project: "web", stack: "dev", baseSerial: 3, fingerprint: "fp-1", mode: "update",
    refresh: [], drift: [], steps, outputs: {}, secretOutputs: [], outputsChanged: false, diagnostics: [],
    ...over,
  };
}

const create = (name: string, news: Record<string, unknown>, secretKeys: string[] = []): PlanStep => ({ kind: "create", urn: urn(name), type: "test:Db", deps: [], news, secretKeys, meta });

/** A plan holding secrets in every place a plan can: step inputs (new, old, outputs), stack outputs and a refresh record. */
function secretPlan(): Plan {
  const update: PlanStep = {
    kind: "update", urn: urn("db"), type: "test:Db", deps: [], id: "db-1",
    olds: { user: "admin", password: "old-pw-123" }, news: { user: "admin", password: "new-pw-456" }, outputs: { password: "old-pw-123", host: "db.internal" },
    changed: ["password"], drift: [], secretKeys: ["password"], meta, prior: { deps: [] },
  };
  return planOf([update], {
    outputs: { dsn: "postgres://admin:new-pw-456@db", region: "eu-west-1" },
    secretOutputs: ["dsn"],
    refresh: [{ kind: "upsert", resource: { urn: urn("cache"), type: "test:Cache", id: "c-1", inputs: { token: "tok-789" }, outputs: {}, deps: [], secretKeys: ["token"] } }],
  });
}

describe("saved plans: writing and reading back", () => {
  it("a plan without secrets reads back exactly as written, unknown values included, with no salt", async () => {
    const path = await planPath();
    const plan = planOf([create("db", { name: "db", size: UNKNOWN, tags: { owner: UNKNOWN, team: "core" } })]);
    await writePlanFile(path, plan, undefined);

    const file = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    expect(file.salt).toBeUndefined();
    expect(file.cairnPlan).toBe(PLAN_FORMAT_VERSION);
    const back = await readPlanFile(path, undefined);
    expect(back).toEqual(plan);
    const news = (back.steps[0] as Extract<PlanStep, { kind: "create" }>).news;
    expect(news.size).toBe(UNKNOWN);
    expect((news.tags as Record<string, unknown>).owner).toBe(UNKNOWN);
    expect(news).toMatchObject({ name: "db", tags: { team: "core" } });
    expect(back).toMatchObject({ project: "web", stack: "dev", baseSerial: 3, fingerprint: "fp-1" });
  });

  it("writes the same plan to the same bytes (a digest over the content, nothing random without secrets)", async () => {
    const [a, b] = [await planPath(), await planPath()];
    const plan = planOf([create("db", { name: "db" })]);
    await writePlanFile(a, plan, undefined);
    await writePlanFile(b, plan, undefined);
    expect(await readFile(a, "utf8")).toBe(await readFile(b, "utf8"));
  });

  it("keeps every secret value encrypted in the file and gives them back with the passphrase", async () => {
    const path = await planPath();
    const plan = secretPlan();
    await writePlanFile(path, plan, "correct horse");

    const text = await readFile(path, "utf8");
    for (const secret of ["old-pw-123", "new-pw-456", "tok-789", "postgres://admin"]) expect(text).not.toContain(secret);
    expect(text).toContain('"$secret"');
    expect(text).toContain("db.internal"); // not secret: stays readable
    expect(JSON.parse(text).salt).toEqual(expect.any(String));
    expect(await readPlanFile(path, "correct horse")).toEqual(plan);
  });

  it("refuses to write a plan with secrets without a passphrase, and writes nothing", async () => {
    const path = await planPath();
    await expect(writePlanFile(path, secretPlan(), undefined)).rejects.toThrow(`set CAIRN_PASSPHRASE to write ${path}`);
    expect(existsSync(path)).toBe(false);
  });

  it("a plan whose only secret is a stack output or a refreshed record is encrypted too", async () => {
    for (const plan of [planOf([], { outputs: { key: "k-321" }, secretOutputs: ["key"] }), planOf([], { refresh: secretPlan().refresh })]) {
      const path = await planPath();
      await expect(writePlanFile(path, plan, undefined)).rejects.toThrow(/CAIRN_PASSPHRASE/);
      await writePlanFile(path, plan, "pw");
      expect(await readFile(path, "utf8")).not.toMatch(/k-321|tok-789/);
      expect(await readPlanFile(path, "pw")).toEqual(plan);
    }
  });

  it("reading a plan with secrets needs the passphrase it was written with", async () => {
    const path = await planPath();
    await writePlanFile(path, secretPlan(), "correct horse");
    await expect(readPlanFile(path, undefined)).rejects.toThrow(`The plan ${path} holds encrypted secrets: set CAIRN_PASSPHRASE to the passphrase \`preview --out\` ran with, to read it.`);
    await expect(readPlanFile(path, "battery staple")).rejects.toBeInstanceOf(DecryptError);
  });

  it("saves a secret input not known yet as the unknown it is, never as an encrypted value", async () => {
    const path = await planPath();
    const plan = planOf([create("db", { password: UNKNOWN, user: "admin" }, ["password"]), create("other", { token: "t-555" }, ["token"])]);
    await writePlanFile(path, plan, "pw");

    const saved = JSON.parse(await readFile(path, "utf8")) as { plan: { steps: { news: Record<string, unknown> }[] } };
    expect(saved.plan.steps[0]!.news.password).toEqual({ $unknown: true });
    expect(saved.plan.steps[1]!.news.token).toEqual({ $secret: expect.any(String) });
    const back = await readPlanFile(path, "pw");
    expect((back.steps[0] as Extract<PlanStep, { kind: "create" }>).news.password).toBe(UNKNOWN);
    expect((back.steps[1] as Extract<PlanStep, { kind: "create" }>).news.token).toBe("t-555");
  });

  it("leaves a plain attribute that merely looks like an encrypted value as it is", async () => {
    const path = await planPath();
    const plan = planOf([create("db", { password: "pw-1", note: { $secret: "not-base64" } }, ["password"])]);
    await writePlanFile(path, plan, "pw");
    expect((await readPlanFile(path, "pw")).steps[0]).toMatchObject({ news: { password: "pw-1", note: { $secret: "not-base64" } } });
  });
});

describe("saved plans: what the reader refuses, naming the file", () => {
  /** Writes a valid plan file, then lets `edit` change its parsed JSON before it is written back. */
  async function edited(edit: (file: Record<string, any>) => void, indent = 1): Promise<string> {
    const path = await planPath();
    await writePlanFile(path, planOf([create("db", { name: "db", size: 1 })]), undefined);
    const file = JSON.parse(await readFile(path, "utf8")) as Record<string, any>;
    edit(file);
    await writeFile(path, JSON.stringify(file, null, indent));
    return path;
  }

  it("a file that is not there, saying how to make one", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "cairn-saved-plan-")), "missing.json");
    dirs.push(join(path, ".."));
    await expect(readPlanFile(path, undefined)).rejects.toThrow(`Cannot read the plan file ${path}`);
    await expect(readPlanFile(path, undefined)).rejects.toThrow(`preview --out ${path}`);
  });

  it("a file that is not JSON", async () => {
    const path = await planPath();
    await writeFile(path, "{ not json");
    await expect(readPlanFile(path, undefined)).rejects.toThrow(`${path} is not valid JSON`);
  });

  it("JSON that is not a plan file", async () => {
    const path = await planPath();
    await writeFile(path, JSON.stringify({ resources: [] }));
    await expect(readPlanFile(path, undefined)).rejects.toThrow(`${path} is not a Cairn plan file (written by \`preview --out\`).`);
  });

  it("a plan of another format version, naming both versions", async () => {
    const path = await edited((f) => (f.cairnPlan = PLAN_FORMAT_VERSION + 1));
    await expect(readPlanFile(path, undefined)).rejects.toThrow(`${path} is a plan of format ${PLAN_FORMAT_VERSION + 1}; this Cairn applies format ${PLAN_FORMAT_VERSION}`);
  });

  it("a plan that is not a plan's shape, naming the field", async () => {
    const path = await edited((f) => delete f.plan.steps[0].secretKeys);
    const err = (await readPlanFile(path, undefined).catch((e: unknown) => e)) as Error;
    expect(err.message).toContain(`${path} is not a valid Cairn plan file:`);
    expect(err.message).toContain("secretKeys");
    expect(err.message).toContain("Nothing was applied");
  });

  it("a plan changed after it was written (its digest no longer matches)", async () => {
    const path = await edited((f) => (f.plan.steps[0].news.size = 2));
    await expect(readPlanFile(path, undefined)).rejects.toThrow(`${path} was changed after \`preview --out\` wrote it (its digest does not match)`);
  });

  it("a plan file whose digest was removed", async () => {
    const path = await edited((f) => delete f.digest);
    await expect(readPlanFile(path, undefined)).rejects.toThrow(`${path} is not a valid Cairn plan file`);
  });

  it("but a file only re-indented (same content) still reads: the digest is of the content", async () => {
    const path = await edited(() => {}, 4);
    expect((await readPlanFile(path, undefined)).steps[0]).toMatchObject({ kind: "create", news: { name: "db", size: 1 } });
  });

  it("a plan's diagnostics round-trip through a plan file: summary, detail, URN and attribute, never the site", async () => {
    const path = await planPath();
    const site = { toString: () => "infra.ts:3:1", toJSON: () => undefined };
    const diagnostics = [{ severity: "warning" as const, summary: '"db" (test:Db), input "size": large', detail: "Check the quota.", urn: urn("db"), attribute: "size", site }];
    await writePlanFile(path, planOf([], { diagnostics }), undefined);
    expect(await readFile(path, "utf8")).not.toContain("infra.ts:3:1");
    const { site: _, ...saved } = diagnostics[0]!;
    expect((await readPlanFile(path, undefined)).diagnostics).toEqual([saved]);
  });
});


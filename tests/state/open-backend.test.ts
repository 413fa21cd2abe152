import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { program } from "../../src/entry/program.js";
import { FileBackend } from "../../src/state/file-backend.js";
import { MemoryBackend } from "../../src/state/memory-backend.js";
import { openBackend } from "../../src/state/open-backend.js";
import { PgBackend } from "../../src/state/pg/pg-backend.js";
import { S3Backend } from "../../src/state/s3/s3-backend.js";
import { memoryType } from "../helpers.js";
import { tempDir } from "./helpers.js";

const base = { stack: "dev", project: "web" };

describe("choosing a backend by URL", () => {
  it("opens files, PostgreSQL, S3 and memory, and shows URLs without passwords", () => {
    const file = openBackend({ ...base, backend: "file://.state" });
    expect(file).toBeInstanceOf(FileBackend);
    expect(file.url).toBe(`file://${join(process.cwd(), ".state")}`);
    expect(openBackend({ ...base, stateDir: "/srv/cairn" }).url).toBe("file:///srv/cairn");

    const pg = openBackend({ ...base, backend: "postgres://ci:s3cret@db.internal:5432/infra?schema=teamA&sslmode=require" });
    expect(pg).toBeInstanceOf(PgBackend);
    expect(pg.url).toBe("postgres://ci@db.internal:5432/infra?sslmode=require&schema=teamA");
    expect(pg.url).not.toContain("s3cret");
    expect(openBackend({ ...base, backend: "postgresql://db/infra" })).toBeInstanceOf(PgBackend);

    expect(openBackend({ ...base, backend: "s3://acme-state/cairn/prod?region=eu-west-1&lease=90" })).toBeInstanceOf(S3Backend);
    expect(openBackend({ ...base, backend: "memory://" })).toBeInstanceOf(MemoryBackend);
  });

  it("explains what is wrong with a URL it cannot use", () => {
    expect(() => openBackend({ ...base, backend: "mysql://u:pw@db/x" })).toThrow(
      'unknown state backend "mysql://u:***@db/x": use file://<dir>, postgres://user@host/database, s3://bucket/prefix?region=<region> or memory://',
    );
    expect(() => openBackend({ ...base, backend: "s3://acme?regoin=eu-west-1" })).toThrow(/unknown parameter "regoin" in S3 URL .*: use region, endpoint, forcePathStyle, lease or retry/);
    expect(() => openBackend({ ...base, backend: "s3://acme?lease=0.1" })).toThrow(/invalid lease "0.1"/);
    expect(() => openBackend({ ...base, backend: "postgres://db/x?schema=drop;table" })).toThrow(/invalid schema "drop;table"/);
    expect(() => openBackend({ ...base, backend: "file://" })).toThrow(/names no directory/);
    expect(() => openBackend({ ...base, stack: "../etc", backend: "memory://" })).toThrow(/invalid stack name/);
    const other = new MemoryBackend({ stack: "prod", project: "web" });
    expect(() => openBackend({ ...base, backend: other })).toThrow("the backend given is for stack web/prod, not web/dev: open one per stack");
  });

  it("loads the PostgreSQL and S3 drivers only when used", async () => {
    const { execFileSync } = await import("node:child_process");
    // Every module URL resolved while importing `entry`, seen through a resolve hook.
    const resolved = (entry: string) => {
      const hook = "export async function initialize({ port }) { globalThis.port = port } export async function resolve(s, c, next) { const r = await next(s, c); globalThis.port.postMessage(r.url); return r }";
      const script = `
        import { register } from "node:module";
        const { port1, port2 } = new MessageChannel();
        const seen = [];
        port1.on("message", (u) => seen.push(u));
        register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hook)}), { data: { port: port2 }, transferList: [port2] });
        ${entry}
        await new Promise((r) => setTimeout(r, 200));
        port1.close();
        console.log(JSON.stringify(seen.filter((u) => u.includes("/node_modules/pg/") || u.includes("/node_modules/@aws-sdk/client-s3/"))));`;
      return JSON.parse(execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" })) as string[];
    };
    expect(resolved('await import("./src/state/open-backend.ts");')).toEqual([]);
    expect(resolved('await import("./src/index.ts");')).toEqual([]);
    // The hook does see them once they are used.
    expect(resolved('await import("pg"); await import("@aws-sdk/client-s3");').length).toBeGreaterThan(1);
  });
});

describe("a program's stack on a chosen backend", () => {
  it("runs on memory://<name>, shared by stacks of this process with that name", async () => {
    const m = memoryType<{ size: number }, { size: number }>("test:backend:Thing", { inputs: { size: {} }, outputs: { size: {} } });
    const prog = program("mem", () => {
      new m.Type("thing", { size: 3 });
    });
    const first = await prog.stack({ backend: "memory://shared-test" }).up();
    expect(first.summary).toMatchObject({ ok: true, succeeded: 1 });
    const again = prog.stack({ backend: "memory://shared-test" });
    expect((await again.resources()).map((r) => r.urn)).toEqual(["urn:cairn:dev::mem::test:backend:Thing::thing"]);
    expect(again.stateUrl).toBe("memory://shared-test");
    expect(await prog.stack({ backend: "memory://" }).resources()).toEqual([]); // a fresh private space
    expect((await again.history()).map((h) => h.current)).toEqual([true]);
  });

  it("takes a backend instance, and CAIRN_BACKEND when no state folder is given", async () => {
    const m = memoryType<{ size: number }, { size: number }>("test:backend:Other", { inputs: { size: {} }, outputs: { size: {} } });
    const prog = program("inst", () => {
      new m.Type("x", { size: 1 });
    });
    const backend = new MemoryBackend({ stack: "test", project: "inst" });
    await prog.stack({ stack: "test", backend }).up();
    expect((await backend.load()).state.resources).toHaveProperty(["urn:cairn:test::inst::test:backend:Other::x"]);

    const dir = await tempDir();
    const saved = process.env.CAIRN_BACKEND;
    process.env.CAIRN_BACKEND = `file://${dir}`;
    try {
      expect(prog.stack().stateUrl).toBe(`file://${dir}`);
      expect(prog.stack({ stateDir: "/elsewhere" }).stateUrl).toBe("file:///elsewhere"); // an explicit folder wins
    } finally {
      if (saved === undefined) delete process.env.CAIRN_BACKEND;
      else process.env.CAIRN_BACKEND = saved;
    }
  });
});

import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { FileBackend } from "../../src/state/file-backend.js";
import { DISK_RESERVE_BYTES } from "../../src/state/file-store.js";
import { usedBytes } from "../state/fixtures/tiny-disk.mjs";
import { cli, tempProject } from "./cli-harness.js";

const run = promisify(execFile);
const PRELOAD = pathToFileURL(fileURLToPath(new URL("../state/fixtures/tiny-disk.mjs", import.meta.url))).href;

// Eight objects whose ids are random, as in a real cloud: a create repeated after a lost record would
// leave a duplicate (two files for one n), and a lost object would be missing from objs/.
const PROGRAM = `
import { program, defineResource } from "cairn-iac";
import { randomBytes } from "node:crypto";
import { writeFile, rm, readFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
const Obj = defineResource<{ n: number }, { n: number }>("e2e:Obj", {
  provider: {
    async create({ inputs, ctx }) {
      await mkdir(join(ctx.workDir, "objs"), { recursive: true });
      const id = inputs.n + "-" + randomBytes(4).toString("hex");
      await writeFile(join(ctx.workDir, "objs", id), "x");
      return { id, outputs: inputs };
    },
    async read({ id, outputs, ctx }) {
      try { await readFile(join(ctx.workDir, "objs", id)); return outputs; } catch { return undefined; }
    },
    async delete({ id, ctx }) { await rm(join(ctx.workDir, "objs", id), { force: true }); },
  },
  schema: { inputs: { n: {} }, outputs: { n: {} } },
});
export default program("disk", () => {
  for (let i = 0; i < 8; i++) new Obj("o" + i, { n: i });
});
`;

/** Every .json file and every .ndjson line under `dir` parses: nothing was left half-written. */
async function expectValidJson(dir: string): Promise<void> {
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const p = join(e.parentPath, e.name);
    expect(e.name, `${p} is a leftover temporary file`).not.toMatch(/\.tmp$/);
    if (e.name.endsWith(".json") || e.name.includes(".json.")) expect(() => JSON.parse(readText(p)), p).not.toThrow();
    if (e.name.endsWith(".ndjson")) for (const line of readText(p).split("\n").filter(Boolean)) expect(() => JSON.parse(line), `${p}: ${line}`).not.toThrow();
  }
}
const cache = new Map<string, string>();
const readText = (p: string) => cache.get(p)!;
async function loadTexts(dir: string) {
  cache.clear();
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) cache.set(join(e.parentPath, e.name), await readFile(join(e.parentPath, e.name), "utf8"));
}

/** After space is back: one `up` converges, with exactly one object per resource and state naming exactly those. */
async function expectConverges(dir: string, label: string): Promise<void> {
  const r = await cli(dir, ["up", "--yes"]);
  expect(r.code, `${label}: ${r.stdout}${r.stderr}`).toBe(0);
  const objs = (await readdir(join(dir, "objs"))).sort();
  expect(objs.map((o) => o.split("-")[0]).sort(), `${label}: one object per resource, no duplicate`).toEqual(["0", "1", "2", "3", "4", "5", "6", "7"]);
  // The snapshot plus the journal (a run that found nothing to change leaves a complete journal as it is).
  const { state, pending } = await new FileBackend({ stateDir: join(dir, ".cairn"), stack: "dev", project: "disk", passphrase: "e2e-pass" }).load();
  expect(pending, label).toEqual([]);
  expect(Object.values(state.resources).map((x) => x.id).sort(), `${label}: state names exactly the objects that exist`).toEqual(objs);
}

async function expectFailsCleanly(dir: string, r: { code: number | null; stdout: string; stderr: string }, label: string) {
  expect(r.code, `${label}: ${r.stdout}${r.stderr}`).not.toBe(0);
  expect(r.code, label).not.toBeNull();
  expect(r.stdout + r.stderr, label).toMatch(/disk full \(ENOSPC\) writing \S*\.cairn\/stacks\/dev\/\S+/);
  await loadTexts(join(dir, ".cairn"));
  await expectValidJson(join(dir, ".cairn"));
}

describe("up on a nearly full disk", () => {
  it("fails non-zero at every size, leaves valid JSON, and converges once space is back (simulated disk)", { timeout: 240_000 }, async () => {
    // How much a finished run keeps: sizes below it cannot complete.
    const probe = await tempProject({ "infra.ts": PROGRAM });
    expect((await cli(probe, ["up", "--yes"])).code).toBe(0);
    const needed = usedBytes(join(probe, ".cairn"));
    const extra = needed - DISK_RESERVE_BYTES;
    expect(extra).toBeGreaterThan(1000);

    for (const free of [0, 2000, DISK_RESERVE_BYTES + Math.floor(extra * 0.2), DISK_RESERVE_BYTES + Math.floor(extra * 0.55), DISK_RESERVE_BYTES + Math.floor(extra * 0.9)]) {
      const dir = await tempProject({ "infra.ts": PROGRAM });
      const label = `${free} bytes free`;
      const nodeOptions = `${process.env.NODE_OPTIONS ?? ""} --import ${PRELOAD}`.trim();
      const r = await cli(dir, ["up", "--yes"], { NODE_OPTIONS: nodeOptions, TINY_DISK_DIR: join(dir, ".cairn"), TINY_DISK_FREE: String(free) });
      await expectFailsCleanly(dir, r, label);
      await expectConverges(dir, label);
    }
  });

  it("fails non-zero at every size, leaves valid JSON, and converges once space is back (a real tmpfs)", { timeout: 240_000 }, async (ctx) => {
    if (process.getuid?.() !== 0) return ctx.skip("mounting a tmpfs needs root; the simulated-disk test covers the same paths");
    const MiB = 1024 * 1024;
    for (const free of [0, 8192, DISK_RESERVE_BYTES + 4096, DISK_RESERVE_BYTES + 8192]) {
      const dir = await tempProject({ "infra.ts": PROGRAM });
      const mount = join(dir, ".cairn");
      await mkdir(mount);
      try {
        await run("mount", ["-t", "tmpfs", "-o", `size=${2 * MiB},mode=0755`, "tmpfs", mount]);
      } catch (e) {
        return ctx.skip(`cannot mount a tmpfs here (${(e as Error).message.split("\n")[0]}); the simulated-disk test covers the same paths`);
      }
      try {
        await writeFile(join(mount, "filler.bin"), Buffer.alloc(2 * MiB - free));
        const label = `tmpfs with ${free} bytes free`;
        const r = await cli(dir, ["up", "--yes"]);
        await expectFailsCleanly(dir, r, label);
        await rm(join(mount, "filler.bin"));
        await expectConverges(dir, label);
      } finally {
        await run("umount", [mount]).catch(() => run("umount", ["-l", mount]));
      }
    }
  });
});

import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Program } from "../../src/entry/program.js";
import { FileBackend } from "../../src/state/file-backend.js";
import type { Case } from "./case.js";
import { judge, type Judged, type Outcome } from "./classify.js";
import { box, ok } from "./cloud.js";
import { rogue } from "./provider-cases.js";
import { BASE_ENV, projectFolder, runIn } from "./run-cli.js";

// One bad input, run in-process through the CLI in a fresh project folder: the state and the fake cloud
// are read before and after, and the outcome judged (see classify.ts).

/** How long a case may take before it counts as hung. */
export const HANG_MS = 20_000;

/** The state as a user would see it (resources and outputs), or, when it cannot be read, every stored byte. */
export async function stateOf(dir: string): Promise<string> {
  try {
    const { state } = await new FileBackend({ stateDir: join(dir, ".cairn"), stack: "dev", project: "bad", passphrase: "cli-test" }).load();
    const resources = Object.values(state.resources).map((r) => [r.urn, r.id, r.inputs, r.outputs, r.deps]);
    return JSON.stringify({ resources, outputs: state.outputs });
  } catch (e) {
    const files: string[] = [];
    const entries = await readdir(join(dir, ".cairn"), { recursive: true, withFileTypes: true }).catch(() => []);
    for (const f of entries) {
      if (!f.isFile() || /^lock|\.tmp$|^disk-reserve$/.test(f.name)) continue;
      files.push(`${join(f.parentPath, f.name)}=${await readFile(join(f.parentPath, f.name), "utf8").catch((x: Error) => x.message)}`);
    }
    return `unreadable (${(e as Error).name}): ${files.sort().join("\n")}`;
  }
}

/** What the fake cloud holds. */
export const cloudOf = () => JSON.stringify([[...box.objects.entries()], [...rogue.objects.entries()]]);

/** A case's run: its outcome, the verdict, and how long it took. */
export interface Trial {
  outcome: Outcome;
  judged: Judged;
  ms: number;
}

/** Runs one case and judges it. A failure to prepare the case (its setup) throws: that is the table's bug, not Cairn's. */
export async function runTrial(c: Case): Promise<Trial> {
  const t0 = Date.now();
  const dir = await projectFolder();
  const prog = new Program("bad", c.program ?? ok, { dir, command: "npx tsx infra.ts" });
  if (c.setup) {
    const first = await runIn(new Program("bad", c.setup === true ? ok : c.setup, { dir, command: "npx tsx infra.ts" }), ["up", "--yes"]);
    if (first.code !== 0) throw new Error(`the setup of "${c.what}" failed: ${first.stderr}`);
  }
  await c.before?.(dir);
  const state = await stateOf(dir);
  const cloud = cloudOf();
  let outcome: Outcome;
  try {
    const ran = runIn(prog, c.argv(dir), { ...BASE_ENV, ...c.env }).then(
      (r) => ({ code: r.code, stdout: r.stdout, stderr: r.stderr }) as Omit<Outcome, "stateChanged" | "cloudChanged">,
      (e: unknown) => ({ code: 1, stdout: "", stderr: "", escaped: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
    );
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<Omit<Outcome, "stateChanged" | "cloudChanged">>((r) => (timer = setTimeout(() => r({ code: undefined, stdout: "", stderr: "" }), HANG_MS)));
    const r = await Promise.race([ran, hung]);
    clearTimeout(timer);
    outcome = { ...r, stateChanged: (await stateOf(dir)) !== state, cloudChanged: cloudOf() !== cloud };
  } finally {
    await c.after?.(dir);
  }
  return { outcome, judged: judge(outcome, c), ms: Date.now() - t0 };
}

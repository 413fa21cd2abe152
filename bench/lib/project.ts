// A throw-away user project outside the repository, so `import "cairn"` resolves as it does for a user:
// node_modules/cairn is this repository (its package.json exports point at dist/), not the tsconfig
// `paths` to src/ that apply inside the repository.
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "./config.js";

/** A bench project: its folder, its state folder, and how to run `tsx infra.ts …` in it. */
export interface Project {
  dir: string;
  stateDir: string;
  /** The repository's tsx binary: what `npx tsx` finds in the project through node_modules/tsx. */
  tsx: string;
  /** Environment for a run with `n` resources: the program size and file state in the project. */
  env(n: number): Record<string, string>;
  /** Forgets all recorded state, so the next `up` creates everything again. */
  resetState(): Promise<void>;
  remove(): Promise<void>;
}

/**
 * Creates a project holding bench/programs/infra.ts, `{"type":"module"}` and the two symlinks.
 * @example const p = await createProject(); try { ... } finally { await p.remove(); }
 */
export async function createProject(): Promise<Project> {
  const dir = await mkdtemp(join(tmpdir(), "cairn-bench-project-"));
  const stateDir = join(dir, ".cairn");
  await writeFile(join(dir, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
  await copyFile(join(REPO, "bench", "programs", "infra.ts"), join(dir, "infra.ts"));
  await mkdir(join(dir, "node_modules"));
  await symlink(REPO, join(dir, "node_modules", "cairn"), "dir");
  await symlink(join(REPO, "node_modules", "tsx"), join(dir, "node_modules", "tsx"), "dir");
  return {
    dir,
    stateDir,
    tsx: join(REPO, "node_modules", ".bin", "tsx"),
    env: (n) => ({ BENCH_N: String(n), CAIRN_BACKEND: `file://${stateDir}` }),
    resetState: () => rm(stateDir, { recursive: true, force: true }),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

// A throw-away user project outside the repository, so `import "cairn-iac"` resolves as it does for a user:
// node_modules/cairn-iac is an installed copy of the package (package.json and the built dist/), not the
// tsconfig `paths` to src/ that apply inside the repository, nor a symlink back into the repository (tsx
// treats files outside node_modules as the user's own code). Its dependencies are the repository's.
import { cp, copyFile, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "./config.js";

/** A bench project: its folder, its state folder, and how to run `tsx infra.ts …` in it. */
export interface Project {
  dir: string;
  stateDir: string;
  /** The repository's tsx binary: what `npx tsx` finds in the project through node_modules/tsx. */
  tsx: string;
  /** The installed package's bin (`cairn`), run with node as `npx cairn` runs it. */
  bin: string;
  /** Environment for a run with `n` resources: the program size and file state in the project. */
  env(n: number): Record<string, string>;
  /** Forgets all recorded state, so the next `up` creates everything again. */
  resetState(): Promise<void>;
  remove(): Promise<void>;
}

/** node_modules as an install makes it: cairn copied in, every other package linked from the repository. */
async function install(dir: string): Promise<void> {
  const modules = join(dir, "node_modules");
  await mkdir(join(modules, "cairn-iac"), { recursive: true });
  await copyFile(join(REPO, "package.json"), join(modules, "cairn-iac", "package.json"));
  await cp(join(REPO, "dist"), join(modules, "cairn-iac", "dist"), { recursive: true });
  for (const name of await readdir(join(REPO, "node_modules"))) {
    if (name !== "cairn-iac") await symlink(join(REPO, "node_modules", name), join(modules, name), "dir");
  }
}

/**
 * Creates a project holding bench/programs/infra.ts, `{"type":"module"}` and an installed Cairn.
 * @example const p = await createProject(); try { ... } finally { await p.remove(); }
 */
export async function createProject(): Promise<Project> {
  const dir = await mkdtemp(join(tmpdir(), "cairn-bench-project-"));
  const stateDir = join(dir, ".cairn");
  await writeFile(join(dir, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
  await copyFile(join(REPO, "bench", "programs", "infra.ts"), join(dir, "infra.ts"));
  await install(dir);
  return {
    dir,
    stateDir,
    tsx: join(REPO, "node_modules", ".bin", "tsx"),
    bin: join(dir, "node_modules", "cairn-iac", "dist", "cli", "bin.js"),
    env: (n) => ({ BENCH_N: String(n), CAIRN_BACKEND: `file://${stateDir}` }),
    resetState: () => rm(stateDir, { recursive: true, force: true }),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

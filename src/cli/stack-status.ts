import { access } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import type { Program } from "../program/program.js";
import { listStacks } from "../state/file-backend.js";

/** Files whose presence means a stack has been used (`up` or `config set`); a bare folder is left by a preview's lock. */
const MARKERS = ["state.json", "journal.ndjson", "config.json"];

/**
 * Whether a stack exists in the state folder, and which stacks do. The folder is resolved as the stack
 * resolves it: `--state-dir`, else `CAIRN_STATE_DIR`, else `.cairn` beside the program.
 *
 * @example await stackStatus(prog, undefined, "prod", process.env) // { exists: false, stacks: ["dev"], stateDir: "/app/.cairn" }
 */
export async function stackStatus(prog: Program, stateDir: string | undefined, stack: string, env: NodeJS.ProcessEnv): Promise<{ exists: boolean; stacks: string[]; stateDir: string }> {
  const dir = stateDir ?? env.CAIRN_STATE_DIR ?? join(prog.location.dir, ".cairn");
  const root = isAbsolute(dir) ? dir : resolve(dir);
  const used = async (name: string) => (await Promise.all(MARKERS.map((m) => access(join(root, "stacks", name, m)).then(() => true, () => false)))).some(Boolean);
  const all = await listStacks(root);
  const stacks = (await Promise.all(all.map(async (n) => ((await used(n)) ? n : undefined)))).filter((n): n is string => n !== undefined);
  return { exists: stacks.includes(stack), stacks, stateDir: root };
}

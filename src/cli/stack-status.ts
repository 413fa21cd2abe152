import { access } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import type { Program } from "../program/program.js";
import type { Stack } from "../stack/stack.js";
import { listStacks } from "../state/file-backend.js";

/** Files whose presence means a stack has been used (`up` or `config set`); a bare folder is left by a preview's lock. */
const MARKERS = ["state.json", "journal.ndjson", "config.json"];

/**
 * Whether a stack exists in the state folder, and which stacks do. The folder is resolved as the stack
 * resolves it: `--state-dir`, else `CAIRN_STATE_DIR`, else `.cairn` beside the program.
 *
 * @example await stackStatus(prog, undefined, "prod", process.env) // { exists: false, stacks: ["dev"], stateDir: "/app/.cairn" }
 */
export async function stackStatus(prog: Program, stateDir: string | undefined, stack: string, env: NodeJS.ProcessEnv, backend?: Stack): Promise<{ exists: boolean; stacks: string[]; stateDir: string }> {
  // A shared backend (PostgreSQL, S3) lists its own stacks; the file backend's folders need a closer look.
  const url = backend?.stateUrl;
  if (backend && url && !url.startsWith("file:")) {
    const stacks = await backend.stacks();
    return { exists: stacks.includes(stack), stacks, stateDir: url };
  }
  const dir = stateDir ?? env.CAIRN_STATE_DIR ?? join(prog.location.dir, ".cairn");
  const root = isAbsolute(dir) ? dir : resolve(dir);
  const used = async (name: string) => (await Promise.all(MARKERS.map((m) => access(join(root, "stacks", name, m)).then(() => true, () => false)))).some(Boolean);
  const all = await listStacks(root);
  const stacks = (await Promise.all(all.map(async (n) => ((await used(n)) ? n : undefined)))).filter((n): n is string => n !== undefined);
  return { exists: stacks.includes(stack), stacks, stateDir: root };
}

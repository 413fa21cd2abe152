import { access } from "node:fs/promises";
import { join } from "node:path";
import type { Stack } from "../stack/stack.js";
import { backendKind, parseBackendUrl } from "../state/backend-url.js";
import { listStacks } from "../state/file-backend.js";

/** Files whose presence means a stack has been used (`up` or `config set`); a bare folder is left by a preview's lock. */
const MARKERS = ["state.json", "journal.ndjson", "config.json"];

/**
 * Whether a stack exists where its state lives, and which stacks do there: the stack's own backend decides
 * (`--backend file://DIR`, `CAIRN_BACKEND`, `--state-dir`, or `.cairn` beside the program — whichever the
 * stack was opened with), so every command sees the same place.
 *
 * @example await stackStatus(prog.stack({ stack: "prod" })) // { exists: false, stacks: ["dev"], stateDir: "file:///app/.cairn" }
 */
export async function stackStatus(stack: Stack): Promise<{ exists: boolean; stacks: string[]; stateDir: string }> {
  const url = stack.stateUrl;
  const parsed = backendKind(url) === "file" ? parseBackendUrl(url) : undefined;
  if (parsed?.kind !== "file") {
    // A shared backend (PostgreSQL, S3) lists its own stacks; the file backend's folders need a closer look.
    const stacks = await stack.stacks();
    return { exists: stacks.includes(stack.name), stacks, stateDir: url };
  }
  const root = parsed.dir;
  const used = async (name: string) => (await Promise.all(MARKERS.map((m) => access(join(root, "stacks", name, m)).then(() => true, () => false)))).some(Boolean);
  const all = await listStacks(root);
  const stacks = (await Promise.all(all.map(async (n) => ((await used(n)) ? n : undefined)))).filter((n): n is string => n !== undefined);
  return { exists: stacks.includes(stack.name), stacks, stateDir: root };
}

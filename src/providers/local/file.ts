import { createHash } from "node:crypto";
import { chmod, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import { defineResource } from "../../program/define.js";
import type { Provider } from "../../provider/provider.js";

/** Inputs of {@link File}. */
export interface FileInputs {
  /** Where to write, relative to the program's directory unless absolute. Changing it replaces the file. */
  path: string;
  content: string;
  /** Permission bits, e.g. `0o600`. */
  mode?: number;
}

/** Outputs of {@link File}. */
export interface FileOutputs {
  path: string;
  content: string;
  mode?: number;
  /** Size in bytes. */
  size: number;
  /** Hex SHA-256 of the content. */
  sha256: string;
}

const sha256 = (s: string | Buffer) => createHash("sha256").update(s).digest("hex");

const fileProvider: Provider<FileInputs, FileOutputs> = {
  idempotentCreate: true, // a create writes the file at its path: made again, it is the same file
  // Files on this machine: no cloud permission.
  permissions: () => [],
  check({ inputs }) {
    const d = [];
    if (typeof inputs.path !== "string" || inputs.path.length === 0) d.push({ severity: "error" as const, attribute: "path", summary: "must be a non-empty string" });
    if (typeof inputs.content !== "string") d.push({ severity: "error" as const, attribute: "content", summary: "must be a string" });
    if (inputs.mode !== undefined && (!Number.isInteger(inputs.mode) || inputs.mode < 0 || inputs.mode > 0o7777)) d.push({ severity: "error" as const, attribute: "mode", summary: "must be permission bits such as 0o644" });
    return d;
  },
  diff({ olds, news, outputs }) {
    if (olds.path !== news.path) return { kind: "replace", changed: ["path"], replaceKeys: ["path"] };
    const changed: string[] = [];
    // Compare against what is on disk (outputs, refreshed when asked) so drift is repaired.
    if (news.content !== olds.content || sha256(news.content) !== outputs.sha256) changed.push("content");
    if (news.mode !== olds.mode) changed.push("mode");
    return changed.length ? { kind: "update", changed, stables: ["path"] } : { kind: "same" };
  },
  async create({ inputs, ctx }) {
    return { id: inputs.path, outputs: await write(resolve(ctx.workDir, inputs.path), inputs) };
  },
  async update({ news, ctx }) {
    return write(resolve(ctx.workDir, news.path), news);
  },
  async read({ id, inputs, ctx }) {
    const full = isAbsolute(id) ? id : resolve(ctx.workDir, id);
    try {
      const [buf, st] = await Promise.all([readFile(full), stat(full)]);
      const out: FileOutputs = { path: inputs.path ?? id, content: buf.toString("utf8"), size: st.size, sha256: sha256(buf) };
      if (inputs.mode !== undefined) out.mode = st.mode & 0o7777;
      return out;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw e;
    }
  },
  async delete({ id, ctx }) {
    await rm(isAbsolute(id) ? id : resolve(ctx.workDir, id), { force: true });
  },
};

async function write(full: string, inputs: FileInputs): Promise<FileOutputs> {
  await mkdir(dirname(full), { recursive: true });
  await writeFile(full, inputs.content);
  if (inputs.mode !== undefined) await chmod(full, inputs.mode);
  const out: FileOutputs = { path: inputs.path, content: inputs.content, size: Buffer.byteLength(inputs.content), sha256: sha256(inputs.content) };
  if (inputs.mode !== undefined) out.mode = inputs.mode;
  return out;
}

/**
 * A file on the local disk: offline, for the quickstart and tests. Reading it notices drift (edited
 * content) and deletion.
 *
 * @example
 * const cfg = new local.File("config", { path: "out/config.json", content: JSON.stringify({ env: "dev" }) });
 * cfg.sha256 // Output<string>
 */
export const File = defineResource<FileInputs, FileOutputs>("local:File", {
  provider: fileProvider,
  schema: {
    inputs: {
      path: { type: "string", forceNew: true, description: "Where to write, relative to the program's directory." },
      content: { type: "string", description: "The file's content." },
      mode: { type: "number", description: "Permission bits." },
    },
    outputs: {
      path: { type: "string", stable: true },
      content: { type: "string" },
      mode: { type: "number" },
      size: { type: "number", description: "Size in bytes." },
      sha256: { type: "string", description: "Hex SHA-256 of the content." },
    },
  },
});
/** A {@link File} instance. */
export type File = InstanceType<typeof File>;

import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { defineResource, type ResourceClass, type ResourceInstance } from "../../program/define.js";
import type { Inputs } from "../../program/output.js";
import type { ResourceOptions } from "../../program/resource.js";
import type { OpContext, Provider } from "../../provider/provider.js";
import { TransientError } from "../../core/errors.js";
import { runShell, tail } from "./shell.js";
import { UserError } from "../../core/diagnostic.js";

/** Inputs of {@link Command}. */
export interface CommandInputs {
  /** Runs once, when the resource is created. Its stdout and stderr become outputs. */
  create: string;
  /** Runs when `create` or `environment` change; without it, `create` runs again. */
  update?: string;
  /** Runs when the resource is deleted or replaced. `CAIRN_STDOUT` holds the last create/update stdout. */
  delete?: string;
  /**
   * Reports the current state: it prints a JSON object, which becomes `attributes` (what a `wait` tests), or
   * `null` when the thing is gone. Runs after create and update, on `refresh`, and on every poll of a wait.
   */
  read?: string;
  /** Extra environment variables for every command. */
  environment?: Record<string, string>;
  /** Working directory, relative to the program's folder. Changing it replaces the resource. */
  dir?: string;
  /** Any values: when they change, the resource is replaced (delete, then create again). */
  triggers?: unknown[];
}

/** Outputs of {@link Command}. */
export interface CommandOutputs<A extends object = Record<string, unknown>> {
  /** What the last create or update printed (a trailing newline removed). */
  stdout: string;
  stderr: string;
  /** The JSON object the `read` command printed last (`{}` without a `read` command). */
  attributes: A;
}

type Op = "create" | "update" | "delete" | "read";

/** The environment a command runs with: Cairn's own (minus its passphrase), the inputs', and what it needs to know. */
function envFor(inputs: CommandInputs, op: Op, urn: string, stdout: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...inputs.environment, CAIRN_OPERATION: op, CAIRN_URN: urn };
  delete env.CAIRN_PASSPHRASE;
  if (stdout !== undefined) env.CAIRN_STDOUT = stdout;
  return env;
}

async function run(op: Op, command: string, inputs: CommandInputs, urn: string, ctx: OpContext, stdout?: string) {
  const r = await runShell(command, { cwd: resolve(ctx.workDir, inputs.dir ?? "."), env: envFor(inputs, op, urn, stdout), signal: ctx.signal });
  if (r.code !== 0) {
    const how = r.signal ? `was killed by ${r.signal}` : `exited with code ${r.code}`;
    const output = tail(r.stderr) || tail(r.stdout);
    const message = `the ${op} command \`${command}\` ${how}${output ? `:\n${output}` : " (it printed nothing)"}`;
    throw op === "read" ? new TransientError(message) : new Error(message);
  }
  return { stdout: r.stdout.replace(/\r?\n$/, ""), stderr: r.stderr.replace(/\r?\n$/, "") };
}

/** Runs the `read` command: its JSON object, `undefined` when it printed `null` (gone). */
async function readAttributes(inputs: CommandInputs, urn: string, ctx: OpContext, stdout: string): Promise<Record<string, unknown> | undefined> {
  const out = (await run("read", inputs.read!, inputs, urn, ctx, stdout)).stdout.trim();
  let parsed: unknown;
  try {
    parsed = out === "" ? null : JSON.parse(out);
  } catch {
    throw new UserError(`the read command \`${inputs.read}\` must print one JSON object (or null when the thing is gone); it printed: ${out.slice(0, 200)}`);
  }
  if (parsed === null) return undefined;
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new UserError(`the read command \`${inputs.read}\` must print a JSON object such as {"status":"ready"}; it printed: ${out.slice(0, 200)}`);
  }
  return parsed as Record<string, unknown>;
}

/** Attributes right after a create or update: a failing read there is not the command's failure, so it is noted and left empty. */
async function attributesAfter(inputs: CommandInputs, urn: string, ctx: OpContext, stdout: string): Promise<Record<string, unknown>> {
  if (!inputs.read) return {};
  try {
    return (await readAttributes(inputs, urn, ctx, stdout)) ?? {};
  } catch (e) {
    ctx.log.info(`${(e as Error).message.split("\n")[0]}; attributes stay empty until a read succeeds`);
    return {};
  }
}

/** Inputs whose change runs the update (or create) command again; the other commands are only recorded. */
const RERUN_ON = ["create", "update", "environment"] as const;

const commandProvider: Provider<CommandInputs, CommandOutputs> = {
  check({ inputs }) {
    const d = [];
    for (const k of ["create", "update", "delete", "read", "dir"] as const) {
      const v = inputs[k];
      if (v === undefined && k !== "create") continue;
      if (typeof v !== "string" || v.trim() === "") d.push({ severity: "error" as const, attribute: k, summary: `must be a non-empty command string` });
    }
    for (const [k, v] of Object.entries(inputs.environment ?? {})) {
      if (typeof v !== "string") d.push({ severity: "error" as const, attribute: "environment", summary: `${k} must be a string (got ${typeof v})` });
    }
    return d;
  },
  async create({ urn, inputs, ctx }) {
    const out = await run("create", inputs.create, inputs, urn, ctx);
    return { id: `cmd-${randomBytes(6).toString("hex")}`, outputs: { ...out, attributes: await attributesAfter(inputs, urn, ctx, out.stdout) } };
  },
  async update({ urn, olds, news, outputs, ctx }) {
    const rerun = RERUN_ON.some((k) => !isDeepStrictEqual(olds[k], news[k]));
    const out = rerun ? await run("update", news.update ?? news.create, news, urn, ctx, outputs.stdout) : { stdout: outputs.stdout, stderr: outputs.stderr };
    return { ...out, attributes: await attributesAfter(news, urn, ctx, out.stdout) };
  },
  async read({ urn, inputs, outputs, ctx }) {
    if (!inputs.read) return outputs;
    const attributes = await readAttributes(inputs, urn, ctx, outputs.stdout);
    return attributes === undefined ? undefined : { ...outputs, attributes };
  },
  async delete({ urn, inputs, outputs, ctx }) {
    if (inputs.delete) await run("delete", inputs.delete, inputs, urn, ctx, outputs.stdout);
  },
};

const CommandType = defineResource<CommandInputs, CommandOutputs>("local:Command", {
  provider: commandProvider,
  schema: {
    inputs: {
      create: { type: "string", description: "Runs on create." },
      update: { type: "string", description: "Runs when create or environment change (default: create)." },
      delete: { type: "string", description: "Runs on delete." },
      read: { type: "string", description: "Prints the current state as a JSON object (null = gone)." },
      environment: { type: "object", description: "Extra environment variables." },
      dir: { type: "string", forceNew: true, description: "Working directory, relative to the program." },
      triggers: { type: "array", forceNew: true, description: "Values whose change replaces the resource." },
    },
    outputs: {
      stdout: { type: "string", description: "What the last create/update printed." },
      stderr: { type: "string" },
      attributes: { type: "object", description: "The read command's JSON object." },
    },
  },
});

/** The class of {@link Command}: generic over the JSON object its `read` command prints. */
export type CommandClass = Pick<ResourceClass<CommandInputs, CommandOutputs>, "type" | "definition" | "get"> & {
  new <A extends object = Record<string, unknown>>(name: string, inputs: { [K in keyof CommandInputs]: Inputs<CommandInputs[K]> }, opts?: ResourceOptions): ResourceInstance<CommandOutputs<A>>;
};

/**
 * Shell commands as a resource: `create` runs once, `update` when its inputs change, `delete` on removal, and
 * `read` — whose JSON stdout becomes `attributes` — lets a `wait` test anything a script can check.
 * Commands run in the program's folder (or `dir`) with `environment` added; `CAIRN_STDOUT` gives update,
 * read and delete what create printed. A command that starts something in the background should redirect
 * that process's output (`> server.log 2>&1 &`) or detach it; Cairn stops reading 0.2 s after the command exits.
 *
 * @example
 * const server = new local.Command<{ status: string }>("server", {
 *   create: "node start.mjs", delete: "node stop.mjs", read: "node health.mjs",
 * });
 * const healthy = wait(server, { until: (s) => s.attributes.status.eq("ready"), timeout: "30s" });
 */
export const Command = CommandType as unknown as CommandClass;
/** A {@link Command} instance. */
export type Command<A extends object = Record<string, unknown>> = ResourceInstance<CommandOutputs<A>>;

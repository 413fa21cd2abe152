import { Command, CommanderError, Option } from "commander";
import pc from "picocolors";
import type { Program } from "../program/program.js";
import { setCliRunner } from "../program/program.js";
import type { Urn } from "../program/urn.js";
import { Stack, type StackOptions } from "../stack/stack.js";
import { CairnError } from "../stack/errors.js";
import { hasChanges, type Plan } from "../plan/plan.js";
import { planToJson, renderEvent, renderPlan, renderRefresh } from "./render.js";
import { formatValue, maskProps } from "./format.js";
import { SECRET_MASK } from "../apply/redact.js";
import { WaitProgress } from "./wait-progress.js";
import { terminalRegion } from "./live.js";
import { registerBackendCommands } from "./commands/backend.js";

/** Exit codes: 0 ok, 1 failure (or changes with --expect-no-changes), 2 usage. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** A usage mistake (exit code 2). */
class UsageError extends Error {}

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  isTTY: boolean;
}

const defaultIo: Io = {
  out: (s) => process.stdout.write(`${s}\n`),
  err: (s) => process.stderr.write(`${s}\n`),
  isTTY: Boolean(process.stdin.isTTY && process.stdout.isTTY),
};

interface GlobalOpts {
  stack: string;
  stateDir?: string;
  backend?: string;
  parallel?: number;
  json?: boolean;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

function parallelArg(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--parallel must be a whole number ≥ 1 (got "${v}")`);
  return n;
}

/**
 * Runs the CLI for a program; resolves to the exit code. Used by `program(...)` when its file is run directly,
 * and by tests with captured output.
 *
 * @example process.exitCode = await runCli(prog, ["preview", "--json"]);
 */
export async function runCli(prog: Program, argv: string[], io: Io = defaultIo): Promise<number> {
  const cancel = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    io.err(pc.yellow("Cancelling: no new operations will start; running ones finish and are saved. Press Ctrl-C again to exit at once."));
    cancel.abort(new Error("cancelled by the user"));
  };
  process.on("SIGINT", onSigint);
  let code: number = EXIT.ok;
  const cli = new Command(prog.location.command)
    .description(`Cairn program "${prog.name}"`)
    .option("--stack <name>", "stack to operate on", process.env.CAIRN_STACK ?? "dev")
    .option("--state-dir <dir>", "state folder (default: CAIRN_STATE_DIR or .cairn beside the program)")
    .option("--backend <url>", "where state lives: file://<dir>, postgres://…, s3://bucket/prefix?region=… (default: CAIRN_BACKEND)")
    .addOption(new Option("--parallel <n>", "provider operations at once").argParser(parallelArg))
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .showHelpAfterError();

  const stackFor = (cmd: Command): { stack: Stack; g: GlobalOpts } => {
    const g = cmd.optsWithGlobals() as GlobalOpts;
    const o: StackOptions = { stack: g.stack, signal: cancel.signal };
    if (g.stateDir) o.stateDir = g.stateDir;
    if (g.backend) o.backend = g.backend;
    if (g.parallel) o.parallel = g.parallel;
    const stack = prog.stack(o);
    return { stack, g };
  };

  /** Prints events as they come: lines for people (waits drawn live in a terminal), NDJSON with --json. */
  const follow = (stack: Stack, json: boolean) => {
    const progress = json ? undefined : new WaitProgress({ out: io.out, live: io.isTTY ? terminalRegion() : undefined });
    const sub = stack.events.subscribe((e) => {
      if (!progress) return io.out(JSON.stringify(e));
      if (progress.handle(e)) return;
      const line = renderEvent(e);
      if (line === undefined) return;
      if (e.type === "diagnostic" && e.severity !== "info") io.err(line);
      else progress.print(line);
    });
    return {
      unsubscribe: () => {
        sub.unsubscribe();
        progress?.close();
      },
    };
  };

  const confirmWith = (yes: boolean | undefined, json: boolean, what: string) => async (plan: Plan) => {
    if (!hasChanges(plan)) return false;
    if (yes) return true;
    if (!io.isTTY || json) throw new UsageError(`${what} needs confirmation: this is not an interactive terminal, so pass --yes to go ahead.`);
    const { default: confirm } = await import("@inquirer/confirm");
    return confirm({ message: `Apply these changes to stack "${plan.stack}"?`, default: false });
  };

  const planOpts = (o: { target?: string[]; replace?: string[]; refresh?: boolean }) => ({
    targets: (o.target ?? []) as Urn[],
    replace: (o.replace ?? []) as Urn[],
    refresh: o.refresh ?? false,
  });

  cli
    .command("preview")
    .description("show what up would do, changing nothing")
    .option("--json", "print the plan as JSON")
    .option("--expect-no-changes", "exit 1 if the plan has changes")
    .option("--target <urn>", "plan only this resource and its dependencies (repeatable)", collect)
    .option("--replace <urn>", "replace this resource even if unchanged (repeatable)", collect)
    .option("--refresh", "read every resource from the cloud before planning")
    .action(async (o, cmd: Command) => {
      const { stack } = stackFor(cmd);
      const sub = follow(stack, false);
      try {
        const plan = await stack.preview(planOpts(o));
        if (o.json) io.out(JSON.stringify(planToJson(plan), null, 2));
        else io.out(renderPlan(plan));
        if (plan.diagnostics.some((d) => d.severity === "error")) code = EXIT.failure;
        else if (o.expectNoChanges && hasChanges(plan)) {
          if (!o.json) io.err(pc.red("error: changes were expected to be none (--expect-no-changes)"));
          code = EXIT.failure;
        }
      } finally {
        sub.unsubscribe();
      }
    });

  cli
    .command("up")
    .description("plan, confirm and apply")
    .option("-y, --yes", "apply without asking")
    .option("--json", "print the plan and events as JSON lines")
    .option("--target <urn>", "apply only this resource and its dependencies (repeatable)", collect)
    .option("--replace <urn>", "replace this resource even if unchanged (repeatable)", collect)
    .option("--refresh", "read every resource from the cloud before planning")
    .action(async (o, cmd: Command) => {
      const { stack } = stackFor(cmd);
      const sub = follow(stack, o.json ?? false);
      try {
        const ask = confirmWith(o.yes, o.json ?? false, "up");
        const r = await stack.up({
          ...planOpts(o),
          confirm: async (plan) => {
            if (o.json) io.out(JSON.stringify({ type: "plan", plan: planToJson(plan) }));
            else io.out(renderPlan(plan));
            return ask(plan);
          },
        });
        if (!r.summary) {
          if (hasChanges(r.plan) && !o.json) io.out(pc.yellow("Cancelled: nothing was changed."));
          return;
        }
        if (r.outputs && Object.keys(r.outputs).length) {
          if (o.json) io.out(JSON.stringify({ type: "outputs", outputs: maskProps(r.outputs, r.plan.secretOutputs) }));
          else {
            io.out("\nOutputs:");
            for (const [k, v] of Object.entries(r.outputs)) io.out(`  ${k}: ${formatValue(v, r.plan.secretOutputs.includes(k))}`);
          }
        }
        if (!r.summary.ok) code = EXIT.failure;
      } finally {
        sub.unsubscribe();
      }
    });

  cli
    .command("destroy")
    .description("delete every resource of the stack")
    .option("-y, --yes", "destroy without asking")
    .option("--json", "print the plan and events as JSON lines")
    .option("--target <urn>", "destroy only this resource (repeatable)", collect)
    .action(async (o, cmd: Command) => {
      const { stack } = stackFor(cmd);
      const sub = follow(stack, o.json ?? false);
      try {
        const ask = confirmWith(o.yes, o.json ?? false, "destroy");
        const r = await stack.destroy({
          targets: (o.target ?? []) as Urn[],
          confirm: async (plan) => {
            if (o.json) io.out(JSON.stringify({ type: "plan", plan: planToJson(plan) }));
            else io.out(renderPlan(plan));
            return ask(plan);
          },
        });
        if (r.summary && !r.summary.ok) code = EXIT.failure;
      } finally {
        sub.unsubscribe();
      }
    });

  cli
    .command("refresh")
    .description("read every resource and record drift in state (changes nothing in the cloud)")
    .option("-y, --yes", "record without asking")
    .option("--json", "print the findings as JSON")
    .action(async (o, cmd: Command) => {
      const { stack } = stackFor(cmd);
      const sub = follow(stack, false);
      try {
        const r = await stack.refresh({
          confirm: async (changes) => {
            if (o.json) io.out(JSON.stringify({ type: "refresh", changes }));
            else io.out(renderRefresh(changes));
            if (o.yes) return true;
            if (!io.isTTY || o.json) throw new UsageError("refresh needs confirmation to record drift: pass --yes.");
            const { default: confirm } = await import("@inquirer/confirm");
            return confirm({ message: "Record these findings in state?", default: false });
          },
        });
        if (r.changes.length === 0) io.out(o.json ? JSON.stringify({ type: "refresh", changes: [] }) : renderRefresh([]));
      } finally {
        sub.unsubscribe();
      }
    });

  cli
    .command("outputs")
    .description("print the stack outputs")
    .option("--json", "print as JSON")
    .option("--show-secrets", "print secret values in clear")
    .action(async (o, cmd: Command) => {
      const { stack } = stackFor(cmd);
      const { values, secretKeys } = await stack.outputs();
      const shown = o.showSecrets ? values : maskProps(values, secretKeys);
      if (o.json) io.out(JSON.stringify(shown, null, 2));
      else for (const [k, v] of Object.entries(shown)) io.out(`${k}: ${v === SECRET_MASK ? v : formatValue(v, false, 10_000)}`);
    });

  const state = cli.command("state").description("inspect the state");
  state
    .command("list")
    .description("list the resources in state")
    .option("--json", "print as JSON")
    .action(async (o, cmd: Command) => {
      const { stack } = stackFor(cmd);
      const rs = await stack.resources();
      if (o.json) io.out(JSON.stringify(rs.map((r) => ({ urn: r.urn, type: r.type, id: r.id, ...(r.tainted ? { tainted: true } : {}), ...(r.protect ? { protect: true } : {}) })), null, 2));
      else if (rs.length === 0) io.out("The stack has no resources.");
      else for (const r of rs) io.out(`${r.urn}  ${pc.dim(r.id)}${r.tainted ? pc.red(" (tainted)") : ""}${r.protect ? pc.cyan(" (protected)") : ""}`);
    });

  registerBackendCommands(cli, { stackFor, io });

  cli
    .command("unlock")
    .description("remove the stack's lock left by a run that was killed")
    .option("--force", "remove it even if its holder may still be running (warns, naming holder and age)")
    .action(async (o, cmd: Command) => {
      const { stack } = stackFor(cmd);
      const r = await stack.unlock({ force: o.force ?? false });
      if (r.warning) io.err(pc.yellow(`warning: ${r.warning}`));
      io.out(r.removed ? `Removed the lock${r.holder ? ` held by pid ${r.holder.pid} on ${r.holder.host} since ${r.holder.since}` : ""}.` : "The stack was not locked.");
    });

  const config = cli.command("config").description("manage the stack's configuration");
  config
    .command("set <key> <value>")
    .option("--secret", "encrypt the value (needs CAIRN_PASSPHRASE)")
    .action(async (key: string, value: string, o, cmd: Command) => {
      const { stack, g } = stackFor(cmd);
      await stack.setConfig(key, value, { secret: o.secret ?? false });
      io.out(`Set ${o.secret ? "secret " : ""}"${key}" for stack "${g.stack}".`);
    });
  config
    .command("get <key>")
    .action(async (key: string, _o, cmd: Command) => {
      const { stack, g } = stackFor(cmd);
      const v = (await stack.config())[key];
      if (!v) throw new CairnError(`Configuration "${key}" is not set for stack "${g.stack}". Set it with \`${prog.location.command} config set ${key} <value>\`.`);
      io.out(v.value);
    });
  config
    .command("rm <key>")
    .action(async (key: string, _o, cmd: Command) => {
      const { stack, g } = stackFor(cmd);
      const removed = await stack.removeConfig(key);
      io.out(removed ? `Removed "${key}" from stack "${g.stack}".` : `"${key}" was not set for stack "${g.stack}".`);
    });
  config
    .command("list")
    .option("--json", "print as JSON")
    .action(async (o, cmd: Command) => {
      const { stack } = stackFor(cmd);
      const all = await stack.config();
      const shown = Object.fromEntries(Object.entries(all).map(([k, v]) => [k, v.secret ? SECRET_MASK : v.value]));
      if (o.json) io.out(JSON.stringify(shown, null, 2));
      else for (const [k, v] of Object.entries(shown)) io.out(`${k} = ${v}`);
    });

  try {
    await cli.parseAsync(argv, { from: "user" });
  } catch (e) {
    code = exitCodeFor(e, io);
  } finally {
    process.off("SIGINT", onSigint);
  }
  return code;
}

function exitCodeFor(e: unknown, io: Io): number {
  if (e instanceof CommanderError) {
    if (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help") return EXIT.ok;
    return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (e instanceof UsageError) {
    io.err(`${pc.red("error:")} ${e.message}`);
    return EXIT.usage;
  }
  const message = e instanceof Error ? e.message : String(e);
  io.err(`${pc.red("error:")} ${message}`);
  if (process.env.CAIRN_DEBUG && e instanceof Error && e.stack) io.err(e.stack);
  return EXIT.failure;
}

setCliRunner((p, argv) => runCli(p, argv));

import type { ProgramSpec } from "../program/evaluate.js";
import { buildCli } from "./cli.js";
import { colors } from "../core/colors.js";
import { wantsColor } from "./colors.js";
import { CliContext } from "./context.js";
import { EXIT, reportError } from "./errors.js";
import { JsonEmitter } from "./json/events.js";
import { processIo, type Io } from "./io.js";
import { Interrupts } from "./interrupts.js";
import { thrownMessage } from "../core/thrown.js";
import { diagnosticsOf } from "../core/diagnostic.js";
import { diagnosticJson } from "./render/diagnostic.js";
import { commandRunning, takeStrayFailure } from "./process-guard.js";
import type { Command } from "commander";

export { EXIT } from "./errors.js";
export { guardProcess } from "./process-guard.js";

/** How the CLI was started, when it is not `npx tsx <program file>`. */
export interface RunCliOptions {
  /** How users run it, for help and hints (default: the program's own command, e.g. `npx tsx infra.ts`). */
  command?: string;
}

/**
 * Runs the CLI for a program; resolves to the exit code. Used by `program(...)` when its file is run
 * directly, by the `cairn` bin, and by tests with their own {@link Io}. Without a program (`npx cairn`
 * outside a project) only help and version work.
 *
 * @example process.exitCode = await runCli(prog, ["preview", "--json"]);
 */
export async function runCli(prog: ProgramSpec | undefined, argv: string[], io: Io = processIo(), opts: RunCliOptions = {}): Promise<number> {
  const command = opts.command ?? prog?.location.command ?? "npx cairn";
  const c = colors(wantsColor({ env: io.env, noColorFlag: argv.includes("--no-color"), isTTY: io.stdoutIsTTY }));
  let ctx: CliContext | undefined;
  const interrupts = new Interrupts((t) => (ctx?.active ? ctx.active.print(c.yellow(t), "err") : io.err(c.yellow(t))));
  ctx = new CliContext(io, prog, interrupts.stopStarting, command, interrupts.abandonCalls);
  const cli = buildCli(ctx, command, prog ? `Cairn program "${prog.name}": plan and apply its stacks` : "Cairn: plan and apply a program's stacks");
  if (!prog) cli.usage("[program file] [options] [command]").addHelpText("after", "\nWithout a program file, infra.ts (or infra.mts, infra.js, infra.mjs) in the current folder is used.");
  cli.hook("preAction", (_root, action) => commandRunning(commandName(action)));
  try {
    await cli.parseAsync(argv, { from: "user" });
    return interrupts.settle(failedOutside(ctx.exitCode));
  } catch (e) {
    ctx.active?.close();
    const noColor = argv.includes("--no-color");
    const debug = argv.includes("--debug") || Boolean(io.env.CAIRN_DEBUG);
    const code = reportError(e, io.err, colors(wantsColor({ env: io.env, noColorFlag: noColor, isTTY: io.stdoutIsTTY })), debug);
    // A script reading --json sees the error in the stream too, and its diagnostics when the user can fix it.
    const diagnostics = diagnosticsOf(e);
    if (argv.includes("--json") && code !== EXIT.ok) new JsonEmitter((l) => io.out(l)).emit({ type: "error", message: thrownMessage(e), exit_code: code, ...(diagnostics ? { diagnostics: diagnostics.map(diagnosticJson) } : {}) });
    return interrupts.settle(failedOutside(code));
  } finally {
    commandRunning(undefined);
    interrupts.dispose();
  }
}

/** `state mv` for the `mv` subcommand of `state`. */
function commandName(action: Command): string {
  const names: string[] = [];
  for (let c: Command | null = action; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/** The exit code, made a failure when the program's code failed outside the run while it ran (said already). */
function failedOutside(code: number): number {
  return takeStrayFailure() && code === EXIT.ok ? EXIT.failure : code;
}

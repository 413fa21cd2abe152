import { Option, type Command } from "commander";
import type { CliContext } from "../context.js";
import { UsageError } from "../errors.js";
import type { Io } from "../io.js";

/** `-y, --yes` of a command that changes the state. @example cmd.addOption(yesEditOption()) */
export const yesEditOption = () => new Option("-y, --yes", "make the change without asking");

/** `state rm`, `stack rm`: the command's path for messages. */
const pathOf = (cmd: Command) => [cmd.parent?.parent ? cmd.parent.name() : "", cmd.name()].filter(Boolean).join(" ");

/**
 * Shows what a state command is about to change, then decides whether to go ahead: yes with `--yes`,
 * asks on a terminal (default no), and is a usage error where nobody can answer.
 *
 * @example if (!(await confirmEdit(ctx, cmd, o, ["state rm will forget …"], "Forget it?"))) return;
 */
export async function confirmEdit(ctx: { io: Io }, cmd: Command, o: { yes?: boolean }, what: readonly string[], question: string): Promise<boolean> {
  const io = ctx.io;
  io.out(what.join("\n"));
  if (o.yes) return true;
  if (!io.stdinIsTTY || !io.stdoutIsTTY) {
    throw new UsageError(`${pathOf(cmd)} changes the state and needs confirmation, and this is not an interactive terminal: pass --yes to go ahead.`, cmd);
  }
  const yes = await io.confirm(question);
  if (!yes) io.out("Nothing was changed.");
  return yes;
}

/**
 * The line after a state change: which stored version holds the state from before it, and the command
 * that brings it back.
 *
 * @example undoLine(ctx, "dev", 12) // "Previous version: 12 — `npx tsx infra.ts state rollback 12` undoes this."
 */
export function undoLine(ctx: CliContext, stack: string, previous: number | undefined): string {
  if (previous === undefined) return "";
  const flag = stack === "dev" ? "" : ` --stack ${stack}`;
  return `Previous version: ${previous} — \`${ctx.command} state rollback ${previous}${flag}\` undoes this.`;
}

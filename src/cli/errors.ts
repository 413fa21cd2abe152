import { CommanderError, type Command } from "commander";
import type { Colors } from "../core/colors.js";
import { thrownMessage } from "../core/thrown.js";
import { isUserError } from "../core/diagnostic.js";
import { userErrorText } from "../program/error-text.js";

/** Exit codes: 0 ok, 1 failure (or changes under `--expect-no-changes`), 2 usage, 130 cancelled with Ctrl-C. */
export const EXIT = { ok: 0, failure: 1, usage: 2, partial: 3, interrupted: 130 } as const;

/**
 * A mistake in how a command was called: printed with the command's help, exit code 2.
 * @example throw new UsageError("up needs confirmation: pass --yes", cmd);
 */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose help is printed after the message. */
    readonly command?: Command,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

/** The user pressed Ctrl-C at a prompt. */
export const isPromptExit = (e: unknown) => e instanceof Error && e.name === "ExitPromptError";

/**
 * Prints an error the way a user should see it (no stack trace unless `CAIRN_DEBUG` is set) and returns
 * the exit code.
 * @example process.exitCode = reportError(e, console.error, noColors, false);
 */
export function reportError(e: unknown, err: (s: string) => void, c: Colors, debug: boolean): number {
  if (e instanceof CommanderError) {
    // Commander printed its message (and the help) already.
    if (e.code === "commander.helpDisplayed" || e.code === "commander.version") return EXIT.ok;
    return e.exitCode === 0 && e.code !== "commander.help" ? EXIT.ok : EXIT.usage;
  }
  if (isPromptExit(e)) {
    err(c.yellow("Cancelled: nothing was changed."));
    return EXIT.interrupted;
  }
  if (e instanceof UsageError) {
    err(`${c.red("error:")} ${e.message}`);
    if (e.command) err(`\n${e.command.helpInformation().trimEnd()}`);
    return EXIT.usage;
  }
  err(`${c.red("error:")} ${errorText(e)}`);
  if (debug && e instanceof Error && e.stack) err(e.stack);
  return EXIT.failure;
}

/**
 * What to print for anything thrown: its message, and for a {@link UserError} whose diagnostic names where
 * (the user's `file:line`), that site on a line of its own under the summary.
 *
 * @example errorText(new UserError({ summary: "x", detail: "do y", site })) // "x\n  --> infra.ts:6:14\ndo y"
 */
export function errorText(e: unknown, who?: string): string {
  return isUserError(e) ? userErrorText(e) : thrownMessage(e, who);
}

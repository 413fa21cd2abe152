import { CommanderError, type Command } from "commander";
import type { Colors } from "../core/colors.js";
import { thrownMessage } from "../core/thrown.js";
import { diagnosticLines, diagnosticsOf, isUserError, UserError } from "../core/diagnostic.js";
import { userErrorText } from "../program/error-text.js";
import { headedLines } from "./render/diagnostic.js";

/** Exit codes: 0 ok, 1 failure (or changes under `--expect-no-changes`), 2 usage, 130 cancelled with Ctrl-C. */
export const EXIT = { ok: 0, failure: 1, usage: 2, partial: 3, interrupted: 130 } as const;

/**
 * A mistake in how a command was called: printed with the command's help, exit code 2.
 * @example throw new UsageError("up needs confirmation: pass --yes", cmd);
 */
export class UsageError extends UserError {
  constructor(
    message: string,
    /** The command whose help is printed after the message. */
    readonly command?: Command,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * Said under an error that is not the user's to fix: what it likely is, and how to see more.
 * @example err(c.dim(BUG_NOTE));
 */
export const BUG_NOTE = "This is not a mistake in your program but an unexpected failure, likely a bug in Cairn or a provider: run again with --debug to see its stack trace, and please report it.";

/** The user pressed Ctrl-C at a prompt. */
export const isPromptExit = (e: unknown) => e instanceof Error && e.name === "ExitPromptError";

/**
 * Prints an error the way a user should see it and returns the exit code. An error the user can fix (a
 * {@link UserError}) prints as its diagnostics: summary, the program's line, what to do; any other error is
 * a fault of Cairn or a provider, and prints its message and a note saying so. A stack trace (Cairn's own
 * code) only with `debug` (`--debug`, or `CAIRN_DEBUG` set).
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
  const stack = debug && e instanceof Error && e.stack ? e.stack : undefined;
  const diagnostics = diagnosticsOf(e);
  if (diagnostics) {
    const heading = (e as { heading?: unknown }).heading;
    if (typeof heading === "string") err(headedLines(heading, diagnostics, c).join("\n"));
    else for (const d of diagnostics) err(diagnosticLines(d, c).join("\n"));
    if (e instanceof UsageError && e.command) err(`\n${e.command.helpInformation().trimEnd()}`);
    if (stack) err(c.dim(stack));
    return e instanceof UsageError ? EXIT.usage : EXIT.failure;
  }
  err(`${c.red("error:")} ${thrownMessage(e)}`);
  err(stack ?? c.dim(BUG_NOTE));
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

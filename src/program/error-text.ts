import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { diagnosticLines, type UserError } from "../core/diagnostic.js";

/**
 * A {@link UserError} as a user reads it, without the `error:` label: its summary, the user's `file:line`
 * when known, then what to do ({@link diagnosticLines}, the one printed shape). The CLI prints errors this way;
 * so does {@link refuseAtEntry}, where no CLI runs yet.
 *
 * @example userErrorText(new UserError({ summary: "x", detail: "do y", site })) // "x\n  --> infra.ts:6:14\ndo y"
 */
export function userErrorText(e: UserError): string {
  return diagnosticLines({ ...e.diagnostic, severity: "error" }).join("\n").replace(/^error: /, "");
}

/** True when `file` (a path or `file:` URL) is the script the process was started with (`npx tsx infra.ts`). */
export function isEntryFile(file: string | null | undefined): boolean {
  const entry = process.argv[1];
  if (!file || !entry) return false;
  const path = file.startsWith("file://") ? fileURLToPath(file) : file;
  try {
    return realpathSync(path) === realpathSync(entry);
  } catch {
    return path === entry;
  }
}

let entryLoaded = false;

/**
 * Says that the process's entry file has loaded and its CLI starts: from now on {@link refuseAtEntry} throws.
 *
 * @example setImmediate(() => { entryHasLoaded(); void runCli(p, argv); });
 */
export function entryHasLoaded(): void {
  entryLoaded = true;
}

/**
 * Ends the process with `e` told as the CLI tells it (one message, exit 1) when the mistake is in the file the
 * process was started with, while it loads (`npx tsx infra.ts` with a resource at its top level): thrown, it
 * would reach Node's handler of uncaught errors, which prints Cairn's bundled source around the throw and a
 * stack trace of Cairn's code above the message. Elsewhere (imported by the `cairn` bin, a test) it returns,
 * and the caller throws `e` for its caller to report.
 *
 * @example refuseAtEntry(error, called?.getFileName()); throw error;
 */
export function refuseAtEntry(e: UserError, file: string | null | undefined): void {
  // Once the entry file has loaded, the CLI runs it: a mistake then is thrown, to end the command as it should.
  if (entryLoaded || !isEntryFile(file)) return;
  process.stderr.write(`error: ${userErrorText(e)}\n`);
  process.exit(1);
}

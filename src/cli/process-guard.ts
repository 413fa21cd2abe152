/**
 * The process around a command run from a program file (`npx tsx infra.ts up`) or the `cairn` bin: what the
 * program's own code does outside the run must not end it in silence. A `process.exit(...)` in the program's
 * body while a command runs, an error or rejected promise nothing handles (during the run or after it
 * finished) each get one message saying what happened, where, and what it means for the state, and a
 * non-zero exit. Installed only when the CLI owns the process; tests driving `runCli` in-process never are.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DeclarationSites, userCallSite } from "../core/declaration-site.js";
import { thrownMessage } from "../core/thrown.js";

let installed = false;
/** The command running now (`up`), or undefined. */
let running: string | undefined;
/** The last command that finished, for messages about what comes after it. */
let finished: string | undefined;
/** Set when Cairn itself exits (a third Ctrl-C, the end of a run): no message. */
let onPurpose = false;
/** Whether the program's code failed outside the run while it ran (the run then exits non-zero). */
let strayFailure = false;
let write: (line: string) => void = (line) => process.stderr.write(`${line}\n`);

/**
 * Installs the guard on this process (once).
 * @example guardProcess(); process.exitCode = await runCli(prog, argv);
 */
export function guardProcess(out: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): void {
  write = out;
  if (installed) return;
  installed = true;
  process.on("exit", onExit);
  process.on("unhandledRejection", (reason) => stray("a promise rejected and nothing handled it", reason));
  process.on("uncaughtException", (e) => stray("it threw an error nothing caught", e));
}

/**
 * Marks a command as running (`name`) or, with undefined, as ended.
 * @example commandRunning("up"); try { … } finally { commandRunning(undefined); }
 */
export function commandRunning(name: string | undefined): void {
  if (name === undefined && running !== undefined) finished = running;
  running = name;
}

/**
 * Whether the program's code failed outside the run while it ran (reported already); resets it.
 * @example if (takeStrayFailure() && code === 0) code = 1;
 */
export function takeStrayFailure(): boolean {
  const was = strayFailure;
  strayFailure = false;
  return was;
}

/**
 * Exits on Cairn's own decision (a third Ctrl-C, a run abandoned at the second): the guard says nothing.
 * @example exitOnPurpose(130);
 */
export function exitOnPurpose(code: number): never {
  onPurpose = true;
  process.exit(code);
}

function onExit(code: number): void {
  if (onPurpose || running === undefined) return;
  // The exit event is emitted inside process.exit(): the frame that called it is the program's, if any.
  const site = new DeclarationSites().siteOf(userCallSite(process.exit)).toString();
  const what = site ? `the program called process.exit(${code}) at ${site}` : `the process was about to exit (code ${code}) with nothing left to run`;
  write(
    `error: ${what} while \`${running}\` was running: the run stopped there, unfinished. What it did until then is recorded; nothing after was done. ` +
      `Its lock was left behind: the next run takes it over (this process is gone). ${site ? "Remove the process.exit call: let the program's body return instead." : "Something the run awaited could never finish."}`,
  );
  if (code === 0) process.exitCode = 1;
}

/** Cairn's own code (built, or its sources under tsx): an error whose first frame is there is Cairn's. */
const OWN = [join(resolve(dirname(fileURLToPath(import.meta.url)), "../.."), "dist"), join(resolve(dirname(fileURLToPath(import.meta.url)), "../.."), "src")];

/**
 * Whether `e` was thrown by Cairn itself rather than by the program (its first stack frame says).
 * @example thrownByCairn(new Error("x")) // false when made in the program's code
 */
export function thrownByCairn(e: unknown): boolean {
  const first = e instanceof Error ? /\n\s+at (?:[^\n]*?\()?(?:file:\/\/)?([^\s():]+):\d+:\d+/.exec(e.stack ?? "")?.[1] : undefined;
  return first !== undefined && OWN.some((root) => first.startsWith(root));
}

function stray(how: string, reason: unknown): void {
  const message = thrownMessage(reason, "the program");
  if (process.env.CAIRN_DEBUG && reason instanceof Error && reason.stack) write(reason.stack);
  if (thrownByCairn(reason)) {
    strayFailure = running !== undefined;
    write(`error: Cairn itself failed outside any step${running ? ` while \`${running}\` was running` : ""}: ${how} (${message}). This is a bug in Cairn: please report it with the trace CAIRN_DEBUG=1 prints. ${running ? "The run goes on and saves its state, then exits 1." : "The run had finished, and its state is saved."}`);
    if (running === undefined) process.exitCode = 1;
    return;
  }
  if (running !== undefined) {
    strayFailure = true;
    write(`error: while \`${running}\` was running, the program's own code failed outside it: ${how} (${message}). The run goes on and saves its state, then exits 1. Handle the error where the program starts that work.`);
    return;
  }
  if (finished === undefined) write(`error: the program's own code failed: ${how} (${message}). No command had started.`);
  else write(`error: after \`${finished}\` finished, the program's own code failed: ${how} (${message}). This came from code the program left running (a timer or a promise), not from the run: \`${finished}\` had finished, and its state is saved.`);
  process.exitCode = 1;
}

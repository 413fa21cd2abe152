import { keepRunningWhenClosed, lineWriter, type LineWriter } from "./line-writer.js";
import { deferredRegion } from "./progress/deferred-region.js";
import type { LiveRegion } from "./progress/live.js";
import { oneLineSdkNodeWarning } from "./sdk-warning.js";

/**
 * Everything the CLI reads from and writes to the outside world, so tests can drive it in-process and a
 * pseudo-terminal test can drive the real one.
 */
export interface Io {
  /** Writes one line (or block) to stdout. */
  out(text: string): void;
  err(text: string): void;
  stdoutIsTTY: boolean;
  /** A person can answer a prompt. */
  stdinIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  size(): { columns: number; rows: number };
  /** The block of the terminal live progress is drawn in. */
  region(): LiveRegion;
  /** Asks a yes/no question (default no). Rejects with an `ExitPromptError` on Ctrl-C. */
  confirm(message: string): Promise<boolean>;
}

/** The process's own terminal and streams. @example await runCli(prog, argv, processIo()) */
export function processIo(): Io {
  const stdout = lineWriter(process.stdout);
  const stderrOpen = stderrGuard();
  oneLineSdkNodeWarning((line) => stderrOpen() && process.stderr.write(line));
  // Live progress needs log-update: on a terminal it loads while the program runs, elsewhere never.
  let live = process.stdout.isTTY ? import("./progress/terminal.js") : undefined;
  return {
    out: (s) => stdout.line(s),
    err: (s) => {
      stdout.flush(); // what was printed before an error shows before it
      if (stderrOpen()) process.stderr.write(`${s}\n`);
    },
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stdinIsTTY: Boolean(process.stdin.isTTY),
    env: process.env,
    size: () => ({ columns: process.stdout.columns ?? 0, rows: process.stdout.rows || 24 }),
    region: () => {
      stdout.flush();
      live ??= import("./progress/terminal.js");
      const region = live.then((m) => m.terminalRegion(process.stdout));
      return afterLines(deferredRegion(region, (e) => process.stderr.write(`cairn: live progress is off (${e instanceof Error ? e.message : String(e)})\n`)), stdout);
    },
    confirm: async (message) => {
      stdout.flush(); // the plan above the question
      const { default: confirm } = await import("@inquirer/confirm");
      return confirm({ message, default: false });
    },
  };
}

/**
 * The region, writing only after the lines waiting in `lines`: it writes to the terminal itself, and erases
 * and redraws relative to where the cursor is.
 *
 * @example const region = afterLines(terminalRegion(), lineWriter(process.stdout));
 */
export function afterLines(region: LiveRegion, lines: LineWriter): LiveRegion {
  return {
    update: (text) => {
      lines.flush();
      region.update(text);
    },
    clear: () => {
      lines.flush();
      region.clear();
    },
    done: () => {
      lines.flush();
      region.done();
    },
  };
}

let guardedStderr: (() => boolean) | undefined;

/** One guard on stderr per process, however many times the CLI runs in it. */
function stderrGuard(): () => boolean {
  return (guardedStderr ??= keepRunningWhenClosed(process.stderr));
}

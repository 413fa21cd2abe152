import { spawn } from "node:child_process";

/** What a finished shell command left behind. */
export interface ShellResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** How long to keep reading a command's output after it exited (a process it started in the background may hold the pipes). */
const DRAIN_MS = 200;

/**
 * Runs `command` in the platform's shell and collects its output. The command runs in its own process
 * group, so a cancel or timeout stops everything it started in the foreground, and a process it leaves
 * running in the background (a server) does not keep Cairn waiting once the command itself has exited.
 *
 * @example const r = await runShell("echo hi", { cwd: ".", env: process.env, signal }); // r.stdout === "hi\n"
 */
export function runShell(command: string, opts: { cwd: string; env: NodeJS.ProcessEnv; signal: AbortSignal }): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    if (opts.signal.aborted) return reject(abortError(command, opts.signal));
    const child = spawn(command, { shell: true, cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"], detached: process.platform !== "win32" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const onAbort = () => kill(child.pid);
    opts.signal.addEventListener("abort", onAbort, { once: true });
    let settled = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      opts.signal.removeEventListener("abort", onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      if (opts.signal.aborted) return reject(abortError(command, opts.signal));
      resolve({ code, signal, stdout, stderr });
    };
    child.on("error", (e) => {
      settled = true;
      opts.signal.removeEventListener("abort", onAbort);
      reject(new Error(`could not start \`${command}\`: ${e.message}`));
    });
    child.on("close", (code, signal) => finish(code, signal));
    child.on("exit", (code, signal) => setTimeout(() => finish(code, signal), DRAIN_MS).unref());
  });
}

function kill(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    // The negative pid is the process group: the shell and what it runs in the foreground.
    process.kill(process.platform === "win32" ? pid : -pid, "SIGTERM");
  } catch {
    // Already gone.
  }
}

function abortError(command: string, signal: AbortSignal): Error {
  const why = signal.reason instanceof Error ? signal.reason.message : "cancelled";
  return new Error(`\`${command}\` was stopped: ${why}`);
}

/** The last lines of a command's output, for error messages (long logs are cut from the top). */
export function tail(text: string, maxLines = 10): string {
  const lines = text.trimEnd().split("\n");
  const shown = lines.slice(-maxLines).join("\n");
  return lines.length > maxLines ? `…\n${shown}` : shown;
}

import type { Command } from "commander";
import type { ProgramSpec } from "../program/evaluate.js";
import type { Duration } from "../core/duration.js";
import { Stack, type StackOptions } from "../stack/stack.js";
import type { Plan } from "../plan/plan.js";
import { changesBeyondObserved, hasChanges } from "../plan/plan.js";
import type { Io } from "./io.js";
import { colors, type Colors } from "../core/colors.js";
import { isCI, wantsColor } from "./colors.js";
import { EXIT, UsageError } from "./errors.js";
import { JsonEmitter } from "./json/events.js";
import { planToJson } from "./json/plan.js";
import { JsonReporter } from "./progress/json.js";
import { LiveReporter } from "./progress/live.js";
import { PlainReporter } from "./progress/plain.js";
import type { Reporter } from "./progress/reporter.js";
import { outputsBlock, planPieces } from "./render/plan.js";
import { SECRET_MASK } from "../core/secret-mask.js";
import type { Props } from "../state/types.js";
import type { ApplySummary } from "../apply/events.js";
import { stackStatus } from "./stack-status.js";
import { STORED_BACKEND_SCHEMES, backendKind } from "../state/backend-url.js";
import { permissionsJson } from "./render/permissions.js";
import { validateStackName } from "../state/stack-name.js";
import { UserError } from "../core/diagnostic.js";
import type { PermissionOptions } from "../plan/permissions.js";

/** The options every command takes (set on the root command, accepted before or after the command name). */
export interface GlobalOptions {
  stack: string;
  stateDir?: string;
  backend?: string;
  parallel?: number;
  /** `--retry-deadline`: how long a provider call retries transient failures. */
  retryDeadline?: Duration;
  /** `--from-backup`: use the previous version of a damaged state snapshot. */
  fromBackup?: boolean;
  /** `--forget-interrupted <urn>` (repeatable): interrupted operations to forget instead of settling. */
  forgetInterrupted?: string[];
  /** False with `--no-color`. */
  color: boolean;
  /** `--debug`: the debug trace on stderr (as `CAIRN_LOG=debug`). */
  debug?: boolean;
}

/** One command's run: its stack, how it reports progress, and its JSON stream when `--json` is on. */
export interface Run {
  stack: Stack;
  c: Colors;
  reporter: Reporter;
  json?: JsonEmitter | undefined;
  /**
   * Prints a plan (text, or a `plan` event with the permissions it needs); `to: "err"` sends the text to
   * stderr (stdout then holds something else, such as `--permissions`' policy); `refreshed` and `read` say
   * what a refresh read before it was made (those reads need permissions too).
   */
  showPlan(plan: Plan, diff: boolean, opts?: { to?: "out" | "err" } & PermissionOptions): void;
  /** Prints stack outputs after an apply (an `Outputs:` block, or an `outputs` event). */
  showOutputs(values: Props, secretKeys: readonly string[]): void;
  close(): void;
}

/**
 * What every command needs: the program, the I/O, the options shared by all commands, the cancellation
 * signal, and the exit code. Commands are small functions over this.
 * @example const ctx = new CliContext(processIo(), prog, signal, "npx tsx infra.ts"); const run = ctx.run(cmd, { json: false });
 */
export class CliContext {
  /** The exit code the run ends with, unless an error decides otherwise. */
  exitCode: number = EXIT.ok;
  /** The display of the command running now (Ctrl-C messages go through it so they do not break live lines). */
  active: Reporter | undefined;

  constructor(
    readonly io: Io,
    private readonly program: ProgramSpec | undefined,
    readonly signal: AbortSignal,
    /** How users run this program, for hints (`npx tsx infra.ts`, `npx cairn infra.ts`). */
    readonly command: string,
    /** Aborted by a second Ctrl-C: provider calls still running are abandoned (recorded as uncertain). */
    readonly abortSignal?: AbortSignal,
  ) {}

  /** The program; a clear usage error when the CLI was started without one (`npx cairn` outside a project). */
  prog(cmd: Command): ProgramSpec {
    if (!this.program) throw new UsageError("no program file: pass one (`npx cairn path/to/infra.ts <command>`), or run from a folder that has infra.ts.", cmd);
    return this.program;
  }

  globals(cmd: Command): GlobalOptions {
    return cmd.optsWithGlobals() as GlobalOptions;
  }

  colors(cmd: Command): Colors {
    return colors(wantsColor({ env: this.io.env, noColorFlag: this.globals(cmd).color === false, isTTY: this.io.stdoutIsTTY }));
  }

  /**
   * The stack the global options name (or stack `name` of the same backend): the one place the CLI opens a
   * backend. A backend that would forget what the run did (`memory://`) is refused here.
   */
  stack(cmd: Command, name?: string): Stack {
    const g = this.globals(cmd);
    const url = g.backend ?? (g.stateDir ? undefined : this.io.env.CAIRN_BACKEND);
    if (url) refuseForgetfulBackend(url, g.backend ? "--backend" : "CAIRN_BACKEND", cmd);
    if (name === undefined) checkStackName(g.stack, cmd);
    const o: StackOptions = { stack: name ?? g.stack, signal: this.signal, ...(this.abortSignal ? { abortSignal: this.abortSignal } : {}) };
    // Decided here, from the options and this CLI's environment, so every command opens the same place.
    const stateDir = g.stateDir ?? this.io.env.CAIRN_STATE_DIR;
    if (stateDir) o.stateDir = stateDir;
    if (url) o.backend = url;
    if (this.io.env.CAIRN_PASSPHRASE !== undefined) o.passphrase = this.io.env.CAIRN_PASSPHRASE;
    if (g.parallel) o.parallel = g.parallel;
    if (g.fromBackup) o.fromBackup = true;
    if (g.forgetInterrupted?.length) o.forgetInterrupted = g.forgetInterrupted;
    if (g.retryDeadline !== undefined) o.retryDeadline = g.retryDeadline;
    // Through the running command's display when there is one, so a trace line never breaks its live lines.
    if (g.debug || this.io.env.CAIRN_LOG?.toLowerCase() === "debug") o.debug = (line) => (this.active ? this.active.print(`[debug] ${line}`, "err") : this.io.err(`[debug] ${line}`));
    return new Stack(this.prog(cmd), o);
  }

  /**
   * Refuses a stack that does not exist, naming those that do: every command but `up`, `preview` and
   * `config set` works on an existing stack, and a mistyped `--stack` must not look like an empty one.
   */
  async requireStack(cmd: Command): Promise<void> {
    const g = this.globals(cmd);
    const s = await stackStatus(this.stack(cmd));
    if (s.exists) return;
    const others = s.stacks.length ? `Existing stacks: ${s.stacks.join(", ")}.` : "This project has no stacks yet.";
    throw new UserError(`Stack "${g.stack}" does not exist (in ${s.stateDir}). ${others} Check --stack, or create it with \`${this.command} up --stack ${g.stack}\`.`);
  }

  /**
   * The end of an apply: the exit code (130 when Ctrl-C cancelled it, 1 when a step failed) and, after a
   * cancel, what was done and what was not.
   */
  finishApply(run: Run, summary: ApplySummary | undefined, changes: boolean): void {
    if (!this.signal.aborted) {
      if (summary && !summary.ok) this.exitCode = EXIT.failure;
      return;
    }
    this.exitCode = EXIT.interrupted;
    if (run.json) return;
    const text = !summary
      ? "Cancelled: nothing was changed."
      : `Cancelled: ${summary.succeeded} finished and saved, ${summary.skipped} not started${summary.failed ? `, ${summary.failed} failed or abandoned (recorded as uncertain: the next run checks them)` : ""}. State is saved and the lock released; run up again to finish.`;
    if (changes || summary) run.reporter.print(run.c.yellow(text), "err");
  }

  /** A note when `preview`/`up` work on a stack that has no state yet (`up` creates it). */
  async newStackNote(cmd: Command, run: Run, to: "out" | "err" = "out"): Promise<void> {
    const g = this.globals(cmd);
    const s = await stackStatus(run.stack);
    if (s.exists || run.json) return;
    const others = s.stacks.filter((n) => n !== g.stack);
    run.reporter.print(run.c.dim(`Stack "${g.stack}" is new${others.length ? ` (existing: ${others.join(", ")})` : ""}: up creates it.`), to);
  }

  /** Starts a command's run: the stack, and its events shown live, as log lines, or as JSON. */
  run(cmd: Command, opts: { json?: boolean } = {}): Run {
    const stack = this.stack(cmd);
    const c = opts.json ? colors(false) : this.colors(cmd);
    // Everything this run prints passes the stack's secret redaction, as its events do.
    const out = (l: string) => this.io.out(stack.redact(l));
    const json = opts.json ? new JsonEmitter(out) : undefined;
    const reporter = this.reporterFor(c, json, stack);
    const sub = stack.events.subscribe((e) => reporter.event(e));
    this.active = reporter;
    return {
      stack,
      c,
      reporter,
      json,
      showPlan: (plan, diff, opts = {}) => {
        if (json) return json.emit({ type: "plan", ...planToJson(plan), permissions: permissionsJson(stack.permissions(plan, opts)) });
        // In pieces of whole steps: a plan of 100,000 steps is never one string (nor redacted as one).
        for (const piece of planPieces(plan, { colors: c, diff })) reporter.print(piece, opts.to ?? "out");
      },
      showOutputs: (values, secretKeys) => {
        if (json) return json.emit({ type: "outputs", outputs: maskOutputs(values, secretKeys) });
        if (Object.keys(values).length === 0) return;
        reporter.print(outputsBlock(values, secretKeys));
      },
      close: () => {
        sub.unsubscribe();
        reporter.close();
        this.active = undefined;
      },
    };
  }

  private reporterFor(c: Colors, json: JsonEmitter | undefined, stack: Stack): Reporter {
    if (json) return new JsonReporter(json, (t) => this.io.err(stack.redact(t)), this.command);
    const sink = { out: (t: string) => this.io.out(stack.redact(t)), err: (t: string) => this.io.err(stack.redact(t)) };
    // CI runners often give jobs a terminal, but their logs cannot redraw lines; nor can a terminal of no size.
    if (this.io.stdoutIsTTY && !isCI(this.io.env) && this.io.size().columns > 0) return new LiveReporter(sink, c, this.command, this.io.region(), () => this.io.size());
    return new PlainReporter(sink, c, this.command);
  }

  /**
   * Decides whether to apply a plan: not when it changes nothing; yes, without asking, when it only records
   * what a refresh observed of undeclared attributes; yes with `--yes`; otherwise asks on a terminal, and
   * refuses (a usage error) where nobody can answer.
   */
  async confirm(cmd: Command, plan: Plan, o: { yes?: boolean; json?: boolean }, question: string): Promise<boolean> {
    if (!hasChanges(plan)) return false;
    // Only what a refresh read of undeclared attributes (a status): recorded without asking, nothing applied.
    if (!changesBeyondObserved(plan)) return true;
    const go = (ok: boolean) => {
      if (ok && !o.json) this.active?.print(""); // a blank line between the plan and the progress
      return ok;
    };
    if (o.yes) return go(true);
    if (o.json || !this.io.stdinIsTTY || !this.io.stdoutIsTTY) {
      const why = o.json ? "--json output cannot ask" : "this is not an interactive terminal";
      throw new UsageError(`${cmd.name()} needs confirmation, and ${why}: pass --yes to go ahead.`, cmd);
    }
    return go(await this.io.confirm(question));
  }
}

/**
 * Refuses a backend that keeps state only in this process's memory: from the command line it would create
 * real objects and then forget them when the process exits.
 *
 * @example refuseForgetfulBackend("memory://", "--backend", cmd) // throws a UsageError
 */
export function refuseForgetfulBackend(url: string, where: string, cmd: Command): void {
  if (backendKind(url) !== "memory") return;
  throw new UsageError(
    `${where} ${url} keeps the state in this process's memory only: the command line would create real objects and then forget them when it exits. ` +
      `Use ${STORED_BACKEND_SCHEMES} (memory:// is for tests and programs that run Cairn from code).`,
    cmd,
  );
}

/**
 * Stack outputs for JSON: exact values, secrets masked.
 * @example maskOutputs({ url: "u", token: "t" }, ["token"]) // { url: "u", token: "[secret]" }
 */
export function maskOutputs(values: Props, secretKeys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const secret = new Set(secretKeys); // a stack may output one value per resource
  for (const [k, v] of Object.entries(values)) out[k] = secret.has(k) ? SECRET_MASK : v;
  return out;
}

/** Refuses an invalid stack name saying where it came from: `--stack`, or `CAIRN_STACK` in the environment. */
function checkStackName(name: string, cmd: Command): void {
  try {
    validateStackName(name);
  } catch (e) {
    let root = cmd;
    while (root.parent) root = root.parent;
    const from = root.getOptionValueSource("stack") === "env" ? "$CAIRN_STACK in the environment" : "--stack";
    throw new UserError({ summary: `Invalid stack name ${JSON.stringify(name)} (from ${from}).`, detail: (e as Error).message.replace(/^invalid stack name "[^"]*": /, "A stack name may ") });
  }
}

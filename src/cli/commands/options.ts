import { InvalidArgumentError, Option, type Command } from "commander";
import type { Urn } from "../../core/urn.js";
import type { RunOptions } from "../../stack/stack.js";
import { parseDuration, type Duration } from "../../core/duration.js";

const collect = (v: string, prev: string[] = []) => [...prev, v];

/**
 * `--parallel`: a whole number ≥ 1.
 * @example parallelArg("4") // 4; parallelArg("0") throws
 */
export function parallelArg(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("It must be a whole number ≥ 1.");
  return n;
}

/**
 * `--state-dir`, `--backend`: not empty (an unset shell variable, `--state-dir "$DIR"`, would otherwise
 * fall back to the default place, and so to another stack's state).
 * @example notEmptyArg("./state") // "./state"; notEmptyArg("") throws
 */
export function notEmptyArg(v: string): string {
  if (v.trim() === "") throw new InvalidArgumentError("It is empty (an unset variable?): give a folder or URL, or leave the option out for the default.");
  return v;
}

/**
 * `--retry-deadline`: a duration longer than zero (`30s`, `2m`).
 * @example retryDeadlineArg("2m") // 120000
 */
export function retryDeadlineArg(v: string): Duration {
  let d: Duration;
  try {
    d = parseDuration(v);
  } catch (e) {
    throw new InvalidArgumentError(`${(e as Error).message}. Give a duration such as 30s, 2m or 1h.`);
  }
  if (d <= 0) throw new InvalidArgumentError(`It must be longer than zero (got "${v}").`);
  return d;
}

/** `--json` on a command that streams events. */
export const jsonOption = () => new Option("--json", "print versioned NDJSON events instead of text (see docs/reference/cli.md: JSON events)");
/** `-y, --yes`. */
export const yesOption = (what: string) => new Option("-y, --yes", `${what} without asking`);
/** `--diff`. */
export const diffOption = () => new Option("--diff", "show attribute-level changes (nested paths, full values) in the plan");

/**
 * The planning options of `preview` and `up`: `--target`, `--replace`, `--refresh`, `--refresh-only`.
 * @example addPlanOptions(root.command("preview"), "plan")
 */
export function addPlanOptions(cmd: Command, verb: string): Command {
  return cmd
    .addOption(new Option("--target <urn>", `${verb} only this resource and what it depends on (repeatable)`).argParser(collect))
    .addOption(new Option("--replace <urn>", "replace this resource even if unchanged (repeatable)").argParser(collect))
    .addOption(new Option("--refresh", "read every resource from the cloud before planning (drift is put back, vanished objects re-created)"))
    .addOption(new Option("--refresh-only", "only read every resource and show (up: record) what changed outside Cairn; changes nothing in the cloud"));
}

/** The planning options as the command line gives them. */
export interface PlanFlags {
  target?: string[];
  replace?: string[];
  refresh?: boolean;
  refreshOnly?: boolean;
}

/**
 * The parsed planning options, as the stack takes them.
 * @example planOptions({ target: ["urn:…"] }) // { targets: ["urn:…"], replace: [], refresh: false, refreshOnly: false }
 */
export function planOptions(o: PlanFlags): RunOptions {
  return { targets: (o.target ?? []) as Urn[], replace: (o.replace ?? []) as Urn[], refresh: o.refresh ?? false, refreshOnly: o.refreshOnly ?? false };
}

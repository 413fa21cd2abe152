import { deferredBlock, deferredCount } from "./deferred.js";
import type { Plan, PlanStep } from "../../plan/plan.js";
import { countSteps, hasChanges } from "../../plan/plan.js";
import { formatDuration } from "../../core/duration.js";
import { SECRET_MASK } from "../../apply/redact.js";
import { noColors, type Colors } from "../colors.js";
import { childPath, diffAttributes, type AttrChange } from "./diff.js";
import { formatBlock, formatValue, isUnknown } from "./value.js";
import { driftedKeys, whyOf } from "./why.js";
import { nameOf } from "../../core/urn.js";
import { renderRefresh } from "./events.js";

/** How to render a plan: colours, and `diff` for attribute-level detail with values never cut. */
export interface PlanRenderOptions {
  colors?: Colors;
  /** `--diff`: nested changes by path, every input of creates and deletes, full values. */
  diff?: boolean;
}

/** Values in the compact (default) plan are cut here; `--diff` shows them whole. */
const COMPACT_MAX = 80;
/** In `--diff`, a created value longer than this is listed path by path. */
const INLINE_MAX = 60;

/**
 * The one-glyph-and-word label of a step, as the plan prints it.
 * @example stepLabel(step) // "+/- replace (create first)"
 */
export function stepLabel(step: PlanStep): string {
  switch (step.kind) {
    case "create":
      return "+ create";
    case "update":
      return "~ update";
    case "replace":
      return step.deleteFirst ? "-/+ replace (delete first)" : step.keepOld ? "+/- replace (create first; the old one is deleted in a later round)" : "+/- replace (create first)";
    case "delete":
      return step.retain ? "- forget (retainOnDelete)" : step.deposed ? "- delete (deposed)" : "- delete";
    case "read":
      return "<= read";
    case "same":
      return step.adopt ? "<= import" : step.movedFrom ? "= move" : "  same";
    case "wait":
      return ">";
    default: {
      const never: never = step;
      return String(never);
    }
  }
}

/**
 * The colour of a step kind.
 * @example stepColor(step, colors(true))("+ create")
 */
export function stepColor(step: PlanStep, c: Colors): (s: string) => string {
  switch (step.kind) {
    case "create":
      return c.green;
    case "update":
      return c.yellow;
    case "replace":
      return c.magenta;
    case "delete":
      return c.red;
    case "read":
      return c.cyan;
    case "same":
      return c.dim;
    case "wait":
      return c.blue;
    default: {
      const never: never = step;
      return never;
    }
  }
}

/**
 * The head line of a step: `+ create <urn>`, or `> issued (until cert.status == "ISSUED")` for a wait.
 * @example stepLine(step) // "+ create urn:cairn:dev::app::local:File::cfg"
 */
export function stepLine(step: PlanStep, c: Colors = noColors): string {
  if (step.kind !== "wait") return `${stepColor(step, c)(stepLabel(step))} ${step.urn}`;
  const text = `> ${step.name} (until ${step.untilText})`;
  return step.needed ? c.blue(text) : c.dim(`${text}  not needed`);
}

const show = (v: unknown, max: number | undefined) => (v === SECRET_MASK ? SECRET_MASK : formatValue(v, max === undefined ? {} : { max }));

/** `path: before → after`, `path: + value`, `path: - value`. */
function changeText(ch: AttrChange, max: number | undefined): string {
  switch (ch.kind) {
    case "changed":
      return `${ch.path}: ${show(ch.before, max)} → ${show(ch.after, max)}`;
    case "added":
      return `${ch.path}: + ${show(ch.after, max)}`;
    case "removed":
      return `${ch.path}: - ${show(ch.before, max)}`;
    default: {
      const never: never = ch;
      return never;
    }
  }
}

/** Attribute lines for a whole set of values (a create's inputs, a delete's attributes). */
function valueLines(props: Record<string, unknown>, secretKeys: readonly string[], o: PlanRenderOptions): string[] {
  return Object.entries(props).flatMap(([k, v]) => {
    const secret = secretKeys.includes(k);
    if (!o.diff) return [`${k}: ${formatValue(v, { secret, max: COMPACT_MAX })}`];
    // Long nested values are listed path by path; secrets and short values on one line.
    return secret ? [`${k}: ${SECRET_MASK}`] : leafLines(k, v);
  });
}

function leafLines(path: string, v: unknown): string[] {
  if (v === null || typeof v !== "object" || isUnknown(v) || formatValue(v).length <= INLINE_MAX) return [`${path}: ${formatValue(v)}`];
  if (Array.isArray(v)) return v.flatMap((x, i) => leafLines(childPath(path, i), x));
  return Object.entries(v).flatMap(([k, x]) => leafLines(childPath(path, k), x));
}

/** Lines for the changed attributes of an update or replace, marking those that force the replacement. */
function changeLines(step: Extract<PlanStep, { kind: "update" | "replace" }>, o: PlanRenderOptions, c: Colors): string[] {
  const drifted = new Set(driftedKeys(step));
  // A drifted attribute changes from what the cloud has (the read outputs) back to the declared value.
  const before: Record<string, unknown> = { ...step.olds };
  for (const k of drifted) before[k] = k in step.outputs ? step.outputs[k] : "(changed outside Cairn)";
  const forcing = step.kind === "replace" && step.reason !== "tainted" && step.reason !== "requested" && step.reason !== "provider" ? step.replaceKeys : [];
  const mark = (attr: string) => (forcing.includes(attr) ? ` ${c.red("(forces replacement)")}` : "");
  if (!o.diff) {
    return step.changed.map((k) => `${k}: ${show(step.secretKeys.includes(k) ? SECRET_MASK : before[k], COMPACT_MAX)} → ${show(step.secretKeys.includes(k) ? SECRET_MASK : step.news[k], COMPACT_MAX)}${mark(k)}`);
  }
  const changes = diffAttributes(before, step.news, step.changed, step.secretKeys);
  return changes.map((ch) => `${changeText(ch, undefined)}${mark(ch.attribute)}`);
}

function waitLines(step: Extract<PlanStep, { kind: "wait" }>): string[] {
  if (!step.needed) return [];
  const lines: string[] = [];
  if (!step.defaultTimeout) lines.push(`timeout ${formatDuration(step.timeoutMs, { short: true })}`);
  if (step.failWhenText) lines.push(`fails at once when ${step.failWhenText}`);
  const after = step.deps.filter((d) => d !== step.target).map(nameOf);
  if (after.length) lines.push(`after ${after.join(", ")}`);
  lines.push(step.why);
  return lines;
}

/**
 * The lines under a step's head line: why it is there (plain), then the attributes it touches (dim).
 * @example stepDetails(step, plan, { diff: true }) // ["content changed in the program", "content: \"a\" → \"b\""]
 */
export function stepDetails(step: PlanStep, plan: Plan, o: PlanRenderOptions = {}): string[] {
  const c = o.colors ?? noColors;
  // `--diff` names where each step's resource was declared, so a reason leads back to the user's line.
  const site = o.diff ? step.site?.toString() : undefined;
  const declared = site ? [`declared at ${site}`] : [];
  if (step.kind === "wait") return step.needed ? [...waitLines(step), ...declared] : [];
  const why = whyOf(step, plan);
  const lines: string[] = why ? [why, ...declared] : declared;
  switch (step.kind) {
    case "create":
      return [...lines, ...valueLines(step.news, step.secretKeys, o).map(c.dim)];
    case "update":
    case "replace":
      return [...lines, ...changeLines(step, o, c).map((l) => c.dim(l))];
    case "delete":
      return o.diff ? [...lines, ...valueLines(step.olds, step.secretKeys, o).map(c.dim)] : lines;
    case "read":
    case "same":
      return lines;
    default: {
      const never: never = step;
      return never;
    }
  }
}

/**
 * `Plan: 2 to create, 1 to delete, 1 wait.` (or a note that only state changes).
 * @example planCountLine(plan) // "Plan: 2 to create, 1 wait."
 */
export function planCountLine(plan: Plan): string {
  const c = countSteps(plan.steps);
  const parts = [c.create && `${c.create} to create`, c.update && `${c.update} to update`, c.replace && `${c.replace} to replace`, c.delete && `${c.delete} to delete`, c.read && `${c.read} to read`].filter(Boolean);
  const waits = plan.steps.filter((s) => s.kind === "wait" && s.needed).length;
  if (waits) parts.push(`${waits} wait${waits === 1 ? "" : "s"}`);
  const later = deferredCount(plan);
  if (later) parts.push(later);
  return `Plan: ${parts.join(", ") || "no resource changes (stack outputs or state records only)"}.`;
}

/**
 * The human-readable plan: a line per step with why it is there and the attributes it changes, the stack
 * outputs, problems, and a count.
 *
 * @example console.log(renderPlan(await stack.preview(), { diff: true }))
 */
export function renderPlan(plan: Plan, o: PlanRenderOptions = {}): string {
  return [...planBlocks(plan, o)].join("\n");
}

/**
 * {@link renderPlan} in pieces of about `size` characters, each a run of whole steps (joined by newlines,
 * they are its text): the CLI prints a plan of 100,000 steps without making it one string, and masks
 * secrets piece by piece (a value never spans two steps).
 *
 * @example for (const piece of planPieces(plan, { diff: true })) console.log(piece);
 */
export function* planPieces(plan: Plan, o: PlanRenderOptions = {}, size = 64 * 1024): Generator<string> {
  let piece: string[] = [];
  let length = 0;
  for (const block of planBlocks(plan, o)) {
    piece.push(block);
    length += block.length + 1;
    if (length < size) continue;
    yield piece.join("\n");
    piece = [];
    length = 0;
  }
  if (piece.length) yield piece.join("\n");
}

/**
 * Stack outputs as printed after a plan and after an apply: a blank line, `Outputs:`, then one `name: value`
 * per output, secret ones masked.
 * @example reporter.print(outputsBlock(result.outputs, result.secretOutputs));
 */
export function outputsBlock(values: Record<string, unknown>, secretKeys: readonly string[]): string {
  const lines = Object.entries(values).map(([k, v]) => `  ${k}: ${secretKeys.includes(k) ? SECRET_MASK : formatBlock(v, "    ")}`);
  return ["", "Outputs:", ...lines].join("\n");
}

/** The plan's text as blocks of lines: the header, each step with its details, the outputs, problems, the count. */
function* planBlocks(plan: Plan, o: PlanRenderOptions): Generator<string> {
  const c = o.colors ?? noColors;
  const changes = hasChanges(plan);
  const errors = plan.diagnostics.filter((d) => d.severity === "error").length;
  // A plan with errors is not "up to date": what it would change is not known until they are fixed.
  if (!changes && !errors) yield c.green(`No changes. Stack "${plan.stack}" is up to date.`);
  if (plan.drift.length) yield [c.yellow("Changed outside Cairn (found by refresh):"), ...renderRefresh(plan.drift, c).split("\n").map((l) => `  ${l}`), ""].join("\n");
  for (const s of plan.steps) {
    if (s.kind === "same" && !s.movedFrom && !s.adopt) continue;
    const details = stepDetails(s, plan, o);
    yield details.length ? [stepLine(s, c), ...details.map((d) => `      ${s.kind === "wait" ? c.dim(d) : d}`)].join("\n") : stepLine(s, c);
  }
  const deferred = deferredBlock(plan, c);
  if (deferred) yield deferred;
  if (Object.keys(plan.outputs).length && plan.mode !== "destroy") yield outputsBlock(plan.outputs, plan.secretOutputs);
  for (const d of plan.diagnostics) yield `${d.severity === "error" ? c.red("error:") : c.yellow("warning:")} ${d.message}`;
  if (errors) yield c.red(`\nThe plan has ${errors} error(s): nothing can be applied until ${errors === 1 ? "it is" : "they are"} fixed.`);
  else if (changes) yield `\n${planCountLine(plan)}`;
}

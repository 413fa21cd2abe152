import { deferredBlock, deferredCount } from "./deferred.js";
import type { Plan, PlanStep } from "../../plan/plan.js";
import { changesBeyondObserved, refreshRecords } from "../../plan/plan.js";
import { SECRET_MASK } from "../../core/secret-mask.js";
import { noColors, type Colors } from "../../core/colors.js";
import { formatBlock } from "../../core/value-text.js";
import { stepKind, stepKindOf } from "../../plan/steps/index.js";
import { countedSteps, planView } from "../../plan/plan-view.js";
import type { DetailOptions, PlanView } from "../../plan/steps/step-parts.js";
import { planViewOnDemand } from "../../plan/plan-view.js";
import { renderRefresh } from "./events.js";
import { diagnosticLines } from "../../core/diagnostic.js";
import { dataLossSteps } from "../../plan/data-loss.js";

/** How to render a plan: colours, and `diff` for attribute-level detail with values never cut. */
export interface PlanRenderOptions {
  colors?: Colors;
  /** `--diff`: nested changes by path, every input of creates and deletes, full values. */
  diff?: boolean;
}

/**
 * The one-glyph-and-word label of a step, as the plan prints it.
 * @example stepLabel(step) // "+/- replace (create first)"
 */
export function stepLabel(step: PlanStep): string {
  return stepKindOf(step).label(step);
}

/**
 * The head line of a step: `+ create <urn>`, or `> issued (until cert.status == "ISSUED")` for a wait.
 * @example stepLine(step) // "+ create urn:cairn:dev::app::local:File::cfg"
 */
export function stepLine(step: PlanStep, c: Colors = noColors): string {
  const spec = stepKindOf(step);
  return spec.line ? spec.line(step, c) : `${c[spec.color](spec.label(step))} ${step.urn}`;
}

/**
 * The lines under a step's head line: why it is there (plain), then the attributes it touches (dim).
 * @example stepDetails(step, plan, { diff: true }) // ["content changed in the program", "content: \"a\" → \"b\""]
 */
export function stepDetails(step: PlanStep, plan: Plan, o: PlanRenderOptions = {}): string[] {
  return detailsOf(step, planView(plan), { colors: o.colors ?? noColors, diff: o.diff ?? false });
}

const NOT_DECLARED: readonly string[] = [];

/** {@link stepDetails} with the plan's view and the options made once per plan, not once per step. */
function detailsOf(step: PlanStep, view: PlanView, o: DetailOptions): string[] {
  // `--diff` names where each step's resource was declared, so a reason leads back to the user's line.
  const site = o.diff ? step.site?.toString() : undefined;
  return stepKindOf(step).details(step, view, site ? [`declared at ${site}`] : NOT_DECLARED, o);
}

/**
 * `Plan: 2 to create, 1 to delete, 1 wait.` (or a note that only state changes).
 * @example planCountLine(plan) // "Plan: 2 to create, 1 wait."
 */
export function planCountLine(plan: Plan): string {
  const parts = countedSteps(plan.steps).flatMap(([kind, n]) => (n ? [stepKind(kind).countText!(n)] : []));
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
  return [...planPieces(plan, o, Infinity)].join("\n");
}

/**
 * {@link renderPlan} in pieces of about `size` characters, each a run of whole steps (joined by newlines,
 * they are its text): the CLI prints a plan of 100,000 steps without making it one string, and masks
 * secrets piece by piece (a value never spans two steps).
 *
 * @example for (const piece of planPieces(plan, { diff: true })) console.log(piece);
 */
export function* planPieces(plan: Plan, o: PlanRenderOptions = {}, size = 64 * 1024): Generator<string> {
  const c = o.colors ?? noColors;
  const { head, tail } = framing(plan, c);
  const pieces = new Pieces(size);
  yield* pieces.addAll(head);
  // The steps' blocks go straight into pieces (a generator of blocks cost a resumption per step); the loop
  // is indexed, as `for…of` makes an iterator result per element until it is optimised.
  const view = planViewOnDemand(plan);
  const detail: DetailOptions = { colors: c, diff: o.diff ?? false };
  for (let i = 0; i < plan.steps.length; i++) {
    const s = plan.steps[i]!;
    if (!stepKindOf(s).listed(s)) continue;
    const full = pieces.add(stepBlock(s, detailsOf(s, view, detail), c));
    if (full !== undefined) yield full;
  }
  yield* pieces.addAll(tail);
  const rest = pieces.rest();
  if (rest !== undefined) yield rest;
}

/** Blocks gathered into pieces of about `size` characters: whole blocks, joined by newlines. */
class Pieces {
  private blocks: string[] = [];
  private length = 0;

  constructor(private readonly size: number) {}

  /** Adds a block; returns the piece it fills, if it fills one. */
  add(block: string): string | undefined {
    this.blocks.push(block);
    this.length += block.length + 1;
    return this.length < this.size ? undefined : this.rest();
  }

  /** Adds a few blocks; yields the pieces they fill. */
  *addAll(blocks: readonly string[]): Generator<string> {
    for (const block of blocks) {
      const full = this.add(block);
      if (full !== undefined) yield full;
    }
  }

  /** What is gathered, as a piece (undefined when nothing is). */
  rest(): string | undefined {
    if (this.blocks.length === 0) return undefined;
    const piece = this.blocks.join("\n");
    this.blocks = [];
    this.length = 0;
    return piece;
  }
}

/**
 * Stack outputs as printed after a plan and after an apply: a blank line, `Outputs:`, then one `name: value`
 * per output, secret ones masked.
 * @example reporter.print(outputsBlock(result.outputs, result.secretOutputs));
 */
export function outputsBlock(values: Record<string, unknown>, secretKeys: readonly string[], notes: Readonly<Record<string, string>> = {}): string {
  const secret = new Set(secretKeys); // a stack may output one value per resource
  const lines = Object.entries(values).map(([k, v]) => `  ${k}: ${secret.has(k) ? SECRET_MASK : formatBlock(v, "    ")}${notes[k] ? `  (${notes[k]})` : ""}`);
  return ["", "Outputs:", ...lines].join("\n");
}

/**
 * The line of a plan that changes nothing, saying so when a refresh's observations are recorded.
 *
 * @example noChangeLine(plan) // 'No changes to apply. Stack "dev" is up to date; the refresh records what it observed of 1 resource in state.'
 */
export function noChangeLine(plan: Plan): string {
  const n = refreshRecords(plan);
  if (n === 0) return `No changes. Stack "${plan.stack}" is up to date.`;
  return `No changes to apply. Stack "${plan.stack}" is up to date; the refresh records what it observed of ${n} ${n === 1 ? "resource" : "resources"} in state.`;
}

/** A step's head line and, indented under it, its details. */
function stepBlock(step: PlanStep, details: readonly string[], c: Colors): string {
  // Added up rather than mapped and joined: a plan of 100,000 steps makes no array per step for it.
  let text = stepLine(step, c);
  for (let i = 0; i < details.length; i++) text += `\n      ${details[i]}`;
  return text;
}

/**
 * The note under a plan that loses data: how many steps, and what `up` does about them; undefined when none.
 * @example dataLossNote(plan) // "! 1 step deletes a stateful object with its data (marked \"! data loss\"): up refuses it unless …"
 */
export function dataLossNote(plan: Plan): string | undefined {
  const losses = dataLossSteps(plan);
  if (losses.length === 0) return undefined;
  const n = losses.length;
  const what = `! ${n === 1 ? "1 step deletes a stateful object with its data" : `${n} steps delete stateful objects with their data`} (marked "! data loss")`;
  if (plan.mode === "destroy") return `${what}: destroy deletes ${n === 1 ? "it" : "them"} as asked; to keep one, run up with retainOnDelete: true on it first.`;
  const refused = losses.filter((l) => !l.loss.allowed).length;
  if (refused === 0) return `${what}: the program allows ${n === 1 ? "it" : "them"} (allowDataLoss).`;
  return `${what}: up refuses ${refused === n ? (n === 1 ? "it" : "them") : `${refused} of them`} unless allowed, with --allow-data-loss <name> or the resource's allowDataLoss: true.`;
}

/**
 * The plan's blocks around its steps: before them whether anything changes and the drift a refresh found;
 * after them the deferred parts, the outputs, problems, and the count.
 */
function framing(plan: Plan, c: Colors): { head: string[]; tail: string[] } {
  // What a refresh observed of values the program does not declare (a status) is recorded, not applied.
  const changes = changesBeyondObserved(plan);
  const errors = plan.diagnostics.filter((d) => d.severity === "error").length;
  const head: string[] = [];
  // A plan with errors is not "up to date": what it would change is not known until they are fixed.
  if (!changes && !errors) head.push(c.green(noChangeLine(plan)));
  if (plan.drift.length) head.push([c.yellow("Changed outside Cairn (found by refresh):"), ...renderRefresh(plan.drift, c).split("\n").map((l) => `  ${l}`), ""].join("\n"));
  const tail: string[] = [];
  const deferred = deferredBlock(plan, c);
  if (deferred) tail.push(deferred);
  if (Object.keys(plan.outputs).length && plan.mode !== "destroy") tail.push(outputsBlock(plan.outputs, plan.secretOutputs, plan.outputNotes));
  for (const d of plan.diagnostics) tail.push(diagnosticLines(d, c).join("\n"));
  const loss = dataLossNote(plan);
  if (loss) tail.push(c.red(loss));
  if (errors) tail.push(c.red(`\nThe plan has ${errors} error(s): nothing can be applied until ${errors === 1 ? "it is" : "they are"} fixed.`));
  else if (changes) tail.push(`\n${planCountLine(plan)}`);
  return { head, tail };
}

import { deferredBlock, deferredCount } from "./deferred.js";
import type { Plan, PlanStep } from "../../plan/plan.js";
import { hasChanges } from "../../plan/plan.js";
import { SECRET_MASK } from "../../core/secret-mask.js";
import { noColors, type Colors } from "../../core/colors.js";
import { formatBlock } from "../../core/value-text.js";
import { stepKind, stepKindOf } from "../../plan/steps/index.js";
import { countedSteps, planView } from "../../plan/plan-view.js";
import type { DetailOptions, PlanView } from "../../plan/steps/step-parts.js";
import { planViewOnDemand } from "./view-on-demand.js";
import { renderRefresh } from "./events.js";

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
  const secret = new Set(secretKeys); // a stack may output one value per resource
  const lines = Object.entries(values).map(([k, v]) => `  ${k}: ${secret.has(k) ? SECRET_MASK : formatBlock(v, "    ")}`);
  return ["", "Outputs:", ...lines].join("\n");
}

/** A step's head line and, indented under it, its details. */
function stepBlock(step: PlanStep, details: readonly string[], c: Colors): string {
  // Added up rather than mapped and joined: a plan of 100,000 steps makes no array per step for it.
  let text = stepLine(step, c);
  for (let i = 0; i < details.length; i++) text += `\n      ${details[i]}`;
  return text;
}

/** The plan's text as blocks of lines: the header, each step with its details, the outputs, problems, the count. */
function* planBlocks(plan: Plan, o: PlanRenderOptions): Generator<string> {
  const c = o.colors ?? noColors;
  const changes = hasChanges(plan);
  const errors = plan.diagnostics.filter((d) => d.severity === "error").length;
  // A plan with errors is not "up to date": what it would change is not known until they are fixed.
  if (!changes && !errors) yield c.green(`No changes. Stack "${plan.stack}" is up to date.`);
  if (plan.drift.length) yield [c.yellow("Changed outside Cairn (found by refresh):"), ...renderRefresh(plan.drift, c).split("\n").map((l) => `  ${l}`), ""].join("\n");
  const view = planViewOnDemand(plan);
  const detail: DetailOptions = { colors: c, diff: o.diff ?? false };
  // Indexed loops over every step: `for…of` makes an iterator result per element until the loop is optimised.
  for (let i = 0; i < plan.steps.length; i++) {
    const s = plan.steps[i]!;
    if (stepKindOf(s).listed(s)) yield stepBlock(s, detailsOf(s, view, detail), c);
  }
  const deferred = deferredBlock(plan, c);
  if (deferred) yield deferred;
  if (Object.keys(plan.outputs).length && plan.mode !== "destroy") yield outputsBlock(plan.outputs, plan.secretOutputs);
  for (const d of plan.diagnostics) yield `${d.severity === "error" ? c.red("error:") : c.yellow("warning:")} ${d.message}`;
  if (errors) yield c.red(`\nThe plan has ${errors} error(s): nothing can be applied until ${errors === 1 ? "it is" : "they are"} fixed.`);
  else if (changes) yield `\n${planCountLine(plan)}`;
}

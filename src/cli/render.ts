/**
 * What the CLI prints, for library users and tests: the plan as text (`renderPlan`) or as the documented
 * JSON (`planToJson`), and the lines of a run.
 *
 * @example console.log(renderPlan(await stack.preview(), { diff: true }));
 */
export { renderPlan, planPieces, stepLine, stepLabel, stepDetails, planCountLine, type PlanRenderOptions } from "./render/plan.js";
export { planToJson, stepToJson } from "./json/plan.js";
export { summaryLine, succeededLine, failedLines, skippedLine, retryingLine, waitEndedLine, diagnosticLine, renderRefresh } from "./render/events.js";
export { whyOf } from "./render/why.js";
export { diffValue, diffAttributes, type AttrChange } from "../core/attribute-diff.js";

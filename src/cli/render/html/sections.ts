import type { Plan, PlanStep } from "../../../plan/plan.js";
import { changesBeyondObserved } from "../../../plan/plan.js";
import { stepKindOf } from "../../../plan/steps/index.js";
import type { WaitStep } from "../../../plan/steps/index.js";
import type { PlanView } from "../../../plan/steps/step-parts.js";
import { stepLook, deferredNote } from "../../../plan/picture/step-look.js";
import type { Look } from "../../../plan/picture/model.js";
import { nameOf } from "../../../core/urn.js";
import { formatDuration } from "../../../core/duration.js";
import { noColors } from "../../../core/colors.js";
import { dataLossNote, noChangeLine, outputsBlock, planCountLine, stepLine } from "../plan.js";
import { LOOKS, lookNames } from "../graph/looks.js";
import type { Redact } from "../graph/label.js";
import { esc } from "./escape.js";

/** The page's text of a value: redacted first (a secret's forms are of the raw text), then escaped. */
type Text = (s: string) => string;

/** Text made safe for the page: through the run's redaction, then HTML-escaped. */
export const pageText = (redact: Redact): Text => (s) => esc(redact(s));

/** A look's badge. */
function badge(look: Look, text = LOOKS[look].word): string {
  return `<span class="badge look-${look}">${esc(text)}</span>`;
}

/**
 * The summary: whether anything changes, a count per look, the plan's count line, its data-loss note and
 * its problems.
 */
export function summarySection(plan: Plan, view: PlanView, t: Text): string {
  const counts = new Map<Look, number>();
  for (const s of plan.steps) if (stepKindOf(s).listed(s)) counts.set(stepLook(s, view), (counts.get(stepLook(s, view)) ?? 0) + 1);
  if (plan.deferred?.length) counts.set("deferred", plan.deferred.length);
  const chips = lookNames().flatMap((l) => (counts.get(l) ? [`<li>${badge(l, `${counts.get(l)} ${LOOKS[l].word}`)}</li>`] : []));
  const errors = plan.diagnostics.filter((d) => d.severity === "error").length;
  const lines = [changesBeyondObserved(plan) || errors ? planCountLine(plan) : noChangeLine(plan)];
  const loss = dataLossNote(plan);
  const problems = plan.diagnostics.map((d) => `<li class="${d.severity}">${d.severity}: ${t(d.summary)}${d.site?.toString() ? ` <span class="site">at ${t(d.site.toString())}</span>` : ""}</li>`);
  return [
    `<section id="summary"><h2>Summary</h2>`,
    `<p>${t(lines[0]!)}</p>`,
    chips.length ? `<ul class="chips">${chips.join("")}</ul>` : "",
    loss ? `<p class="error">${t(loss)}</p>` : "",
    problems.length ? `<ul>${problems.join("")}</ul>` : "",
    `</section>`,
  ].join("\n");
}

/** One step: its plan line as the terminal prints it, and under it the lines `preview --diff` prints. */
function stepItem(step: PlanStep, view: PlanView, t: Text): string {
  const spec = stepKindOf(step);
  const look = stepLook(step, view);
  const declared = step.site ? [`declared at ${step.site.toString()}`] : [];
  const details = spec.details(step, view, declared, { colors: noColors, diff: true });
  const body = details.length ? `<pre>${details.map(t).join("\n")}</pre>` : "";
  return `<details class="step look-${look}" data-urn="${t(step.urn)}"><summary>${badge(look)} <code>${t(stepLine(step))}</code></summary>${body}</details>`;
}

/** The steps, each with its attribute diff (secrets masked as the terminal masks them). */
export function stepsSection(plan: Plan, view: PlanView, t: Text): string {
  const items: string[] = [];
  for (const s of plan.steps) if (stepKindOf(s).listed(s)) items.push(stepItem(s, view, t));
  const search = `<p class="controls"><input type="search" id="search" placeholder="Filter steps by name, type or attribute" aria-label="Filter steps"></p>`;
  return [`<section id="steps"><h2>Steps (${items.length})</h2>`, items.length ? search : `<p class="muted">No step changes anything.</p>`, ...items, `</section>`].join("\n");
}

/** One wait as a table row: name, target, predicate, failure condition, timeout, whether it runs and why. */
function waitRow(w: WaitStep, t: Text): string {
  const cells = [w.name, nameOf(w.target), w.untilText, w.failWhenText ?? "", `${formatDuration(w.timeoutMs, { short: true })}${w.defaultTimeout ? " (default)" : ""}`, w.needed ? `yes: ${w.why}` : `no: ${w.why}`];
  return `<tr>${cells.map((c) => `<td>${t(c)}</td>`).join("")}</tr>`;
}

/** The waits with their predicates and timeouts; empty when the plan has none. */
export function waitsSection(plan: Plan, t: Text): string {
  const waits = plan.steps.filter((s): s is WaitStep => s.kind === "wait");
  if (!waits.length) return "";
  const head = ["Wait", "Target", "Until", "Fails when", "Timeout", "Runs?"].map((h) => `<th>${h}</th>`).join("");
  return `<section id="waits"><h2>Waits (${waits.length})</h2><table><thead><tr>${head}</tr></thead><tbody>${waits.map((w) => waitRow(w, t)).join("")}</tbody></table></section>`;
}

/** What is deferred to a later round, with the reason for each part; empty when nothing is. */
export function deferredSection(plan: Plan, t: Text): string {
  const parts = plan.deferred ?? [];
  const unforeseen = plan.unforeseen ?? [];
  if (!parts.length && !unforeseen.length) return "";
  const head = ["Part", "Type", "Waits for", "Reason", "Declared at"].map((h) => `<th>${h}</th>`).join("");
  const rows = parts.map((p) => `<tr>${[p.name ?? p.pattern ?? "…", p.type, p.waitsFor, deferredNote(p), p.site?.toString() ?? ""].map((c) => `<td>${t(c)}</td>`).join("")}</tr>`);
  const notes = unforeseen.map((v) => `<li>${t(`apply() on ${v} could not run on stand-ins: whether it declares resources is known once ${v} is (up plans once more after applying).`)}</li>`);
  return [
    `<section id="deferred"><h2>Deferred to a later round (${parts.length})</h2>`,
    `<p class="muted">These wait for values known only during apply: <code>up</code> plans and applies them in its next round.</p>`,
    rows.length ? `<table><thead><tr>${head}</tr></thead><tbody>${rows.join("")}</tbody></table>` : "",
    notes.length ? `<ul>${notes.join("")}</ul>` : "",
    `</section>`,
  ].join("\n");
}

/** The stack outputs as planned, secret ones masked; empty when there are none. */
export function outputsSection(plan: Plan, t: Text): string {
  if (!Object.keys(plan.outputs).length || plan.mode === "destroy") return "";
  const text = outputsBlock(plan.outputs, plan.secretOutputs, plan.outputNotes).trimStart().split("\n").slice(1).join("\n");
  return `<section id="outputs"><h2>Outputs</h2><pre>${t(text)}</pre></section>`;
}

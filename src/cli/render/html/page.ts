import type { Plan } from "../../../plan/plan.js";
import { planViewOnDemand } from "../../../plan/plan-view.js";
import type { Redact } from "../graph/label.js";
import { LOOKS, lookNames } from "../graph/looks.js";
import { esc } from "./escape.js";
import { pageScript } from "./script.js";
import { pageStyles } from "./styles.js";
import { deferredSection, outputsSection, pageText, stepsSection, summarySection, waitsSection } from "./sections.js";

/** The graph part of a plan page: the SVG drawn, or why it is not (too many nodes). */
export type PageGraph = { svg: string; hidden: number } | { note: string };

/**
 * The page allows nothing from outside: no request of any kind can leave it (styles and the script are
 * inline, the graph is inline SVG).
 */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

/** The graph section: the SVG with its legend, or the note saying why it is left out. */
function graphSection(graph: PageGraph): string {
  if ("note" in graph) return `<section id="graph"><h2>Graph</h2><p class="muted">${esc(graph.note)}</p></section>`;
  const legend = lookNames()
    .filter((l) => l !== "resource")
    .map((l) => `<li><span class="badge look-${l}">${esc(LOOKS[l].word)}</span></li>`)
    .join("");
  const hidden = graph.hidden ? `<p class="muted">${graph.hidden} unchanged resources are left out of the graph (the steps below list every change).</p>` : "";
  return `<section id="graph"><h2>Graph</h2><ul class="chips legend">${legend}</ul>${hidden}<div class="picture">${graph.svg}</div></section>`;
}

/**
 * A plan as one self-contained HTML page a reviewer can attach to a pull request: the summary, the graph,
 * the steps with their attribute diffs, the waits, what is deferred and the outputs. All text passes
 * through `redact` and is masked as the terminal masks it; the page makes no request (see {@link CSP}).
 *
 * @example await writeFile("plan.html", planPage(plan, { svg, hidden: 0 }, stack.redact));
 */
export function planPage(plan: Plan, graph: PageGraph, redact: Redact): string {
  const t = pageText(redact);
  const view = planViewOnDemand(plan);
  const title = `${plan.project}/${plan.stack}: plan`;
  return [
    `<!doctype html>`,
    `<html lang="en"><head><meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${t(title)}</title>`,
    `<style>${pageStyles()}</style>`,
    `</head><body>`,
    `<header><h1>${t(title)}</h1><p class="muted">${t(`Project ${plan.project}, stack ${plan.stack}, ${plan.mode} plan against state serial ${plan.baseSerial}.`)}</p></header>`,
    summarySection(plan, view, t),
    graphSection(graph),
    stepsSection(plan, view, t),
    waitsSection(plan, t),
    deferredSection(plan, t),
    outputsSection(plan, t),
    `<script>${pageScript()}</script>`,
    `</body></html>`,
    "",
  ].join("\n");
}

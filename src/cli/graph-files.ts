import { join } from "node:path";
import { writeFile } from "node:fs/promises";
import { UserError } from "../core/diagnostic.js";
import type { Plan } from "../plan/plan.js";
import type { Graph } from "../plan/picture/model.js";
import { planGraph } from "../plan/picture/from-plan.js";
import { selectGraph, type GraphSelection } from "../plan/picture/select.js";
import { SecretRegistry } from "../apply/secret-registry.js";
import { planSecrets } from "../stack/plan-secrets.js";
import type { Redact } from "./render/graph/label.js";
import { renderDot } from "./render/graph/dot.js";
import { renderMermaid } from "./render/graph/mermaid.js";
import { renderSvg, SVG_NODE_LIMIT } from "./render/graph/svg.js";
import { planPage, type PageGraph } from "./render/html/page.js";

/** The formats a graph is written in. */
export const GRAPH_FORMATS = ["dot", "mermaid", "svg"] as const;

/** One of {@link GRAPH_FORMATS}. */
export type GraphFormat = (typeof GRAPH_FORMATS)[number];

/** Where `@viz-js/viz` is looked for: the user's folder first, then Cairn's own. */
const vizBases = () => [join(process.cwd(), "noop.js"), import.meta.url];

/**
 * The format a file's extension names (`.svg`, `.mmd`/`.mermaid`, `.dot`/`.gv`), or undefined for another.
 * @example formatOfFile("plan.svg") // "svg"
 */
export function formatOfFile(file: string): GraphFormat | undefined {
  const ext = file.slice(file.lastIndexOf(".") + 1).toLowerCase();
  if (ext === "svg") return "svg";
  if (ext === "mmd" || ext === "mermaid") return "mermaid";
  if (ext === "dot" || ext === "gv") return "dot";
  return undefined;
}

/**
 * The graph in a format: DOT and Mermaid as text, SVG laid out by Graphviz (WebAssembly, loaded only here).
 * @example await graphText(planGraph(plan), "mermaid", stack.redact)
 */
export async function graphText(g: Graph, format: GraphFormat, redact: Redact): Promise<string> {
  switch (format) {
    case "dot":
      return renderDot(g, redact);
    case "mermaid":
      return renderMermaid(g, redact);
    case "svg":
      return renderSvg(renderDot(g, redact), g.nodes.length, vizBases());
    default: {
      const never: never = format;
      return never;
    }
  }
}

/**
 * The redaction for a plan read from a file: every secret value the plan holds (the terminal's run
 * registers the same ones when it plans).
 *
 * @example const redact = planRedaction(await readPlanFile("plan.json", passphrase));
 */
export function planRedaction(plan: Plan): Redact {
  const secrets = new SecretRegistry();
  planSecrets(plan, secrets);
  return (text) => secrets.redact(text);
}

/**
 * The graph a plan page draws: the plan's changes and what is next to them, as SVG; a note instead when
 * that is still more than an SVG is laid out for.
 */
async function pageGraph(plan: Plan, redact: Redact, selection: GraphSelection): Promise<PageGraph> {
  const g = selectGraph(planGraph(plan), selection);
  if (g.nodes.length > SVG_NODE_LIMIT) {
    return { note: `The graph of this plan has ${g.nodes.length} nodes, more than a page draws readably (${SVG_NODE_LIMIT}): draw a part of it with \`graph --plan <file> --target <name> --depth <n>\`. The steps below list every change.` };
  }
  return { svg: await graphText(g, "svg", redact), hidden: g.hidden };
}

/**
 * Writes a plan's page ({@link planPage}) to `file`.
 * @example await writePlanPage("plan.html", plan, stack.redact, { changesOnly: true });
 */
export async function writePlanPage(file: string, plan: Plan, redact: Redact, selection: GraphSelection = { changesOnly: true }): Promise<void> {
  const page = planPage(plan, await pageGraph(plan, redact, selection), redact);
  await writeGraphFile(file, page);
}

/**
 * Writes a plan's graph to `file`, in the format its extension names (DOT for another).
 * @example await writePlanGraph("plan.svg", plan, stack.redact);
 */
export async function writePlanGraph(file: string, plan: Plan, redact: Redact): Promise<void> {
  const g = selectGraph(planGraph(plan), { changesOnly: true });
  await writeGraphFile(file, await graphText(g, formatOfFile(file) ?? "dot", redact));
}

/**
 * Writes a picture or page to a file, saying which when it cannot.
 * @example await writeGraphFile("graph.dot", dot);
 */
export async function writeGraphFile(file: string, text: string): Promise<void> {
  try {
    await writeFile(file, text);
  } catch (e) {
    throw new UserError({ summary: `Cannot write ${file}: ${(e as Error).message}.`, detail: "Give a path in a folder that exists and can be written." });
  }
}

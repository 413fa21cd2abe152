import { InvalidArgumentError, Option, type Command } from "commander";
import { UserError } from "../../core/diagnostic.js";
import { readPlanFile } from "../../plan/saved-plan.js";
import { planGraph } from "../../plan/picture/from-plan.js";
import { stateGraph } from "../../plan/picture/from-state.js";
import { selectGraph, type GraphSelection } from "../../plan/picture/select.js";
import type { CliContext } from "../context.js";
import { formatOfFile, GRAPH_FORMATS, graphText, planRedaction, writeGraphFile, writePlanPage, type GraphFormat } from "../graph-files.js";

interface GraphOptions {
  plan?: string;
  format?: GraphFormat;
  out?: string;
  html?: string;
  target?: string[];
  depth?: number;
  filter?: string;
  unchanged?: boolean;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** `--depth`: a whole number ≥ 0. */
function depthArg(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("It must be a whole number ≥ 0 (edges away from a target).");
  return n;
}

/** What the options keep of the graph. */
function selection(o: GraphOptions): GraphSelection {
  return { targets: o.target ?? [], ...(o.depth !== undefined ? { depth: o.depth } : {}), ...(o.filter ? { filter: o.filter } : {}), changesOnly: o.plan !== undefined && !o.unchanged };
}

/**
 * `graph`: the stack's resources (from state), or a saved plan's steps, as a picture: DOT, Mermaid or SVG,
 * on stdout or in `--out`; a saved plan as a page with `--html`.
 *
 * @example registerGraph(root, ctx); // `graph --plan plan.json --format svg --out plan.svg`
 */
export function registerGraph(root: Command, ctx: CliContext): void {
  root
    .command("graph")
    .description("draw the stack's resources and dependencies (or a saved plan's steps, --plan) as DOT, Mermaid or SVG")
    .option("--plan <file>", "draw this saved plan (`preview --out`) instead of the state: steps coloured by what they do, waits, deferred parts")
    .addOption(new Option("--format <format>", "dot, mermaid or svg (default: from --out's extension, else dot)").choices(GRAPH_FORMATS))
    .option("--out <file>", "write to this file instead of stdout")
    .option("--html <file>", "with --plan: write the plan as one self-contained page (summary, graph, diffs, waits, deferred parts)")
    .addOption(new Option("--target <urn>", "draw this resource (URN or name) and what it depends on and what depends on it (repeatable)").argParser(collect))
    .addOption(new Option("--depth <n>", "with --target: only nodes this many edges away").argParser(depthArg))
    .option("--filter <text>", "only nodes whose URN contains this text (case-insensitive)")
    .option("--unchanged", "with --plan: draw every unchanged resource too (default: only those next to a change)")
    .action(async (o: GraphOptions, cmd: Command) => {
      if (o.html && !o.plan) throw new UserError({ summary: "--html draws a saved plan: give it with --plan <file>.", detail: "Or write a page while planning: `preview --html plan.html`." });
      let graph;
      let redact: (t: string) => string;
      if (o.plan) {
        const plan = await readPlanFile(o.plan, ctx.io.env.CAIRN_PASSPHRASE);
        redact = planRedaction(plan);
        if (o.html) {
          await writePlanPage(o.html, plan, redact, selection(o));
          ctx.io.err(`Wrote the plan's page to ${o.html}.`);
          if (!o.out && !o.format) return;
        }
        graph = selectGraph(planGraph(plan), selection(o));
      } else {
        await ctx.requireStack(cmd);
        const stack = ctx.stack(cmd);
        const g = ctx.globals(cmd);
        graph = selectGraph(stateGraph(`${ctx.prog(cmd).name}/${g.stack}`, await stack.resources()), selection(o));
        redact = (t) => stack.redact(t);
      }
      const text = await graphText(graph, o.format ?? (o.out ? formatOfFile(o.out) : undefined) ?? "dot", redact);
      if (!o.out) return ctx.io.out(text);
      await writeGraphFile(o.out, text);
      ctx.io.err(`Wrote ${graph.nodes.length} nodes to ${o.out}${graph.hidden ? ` (${graph.hidden} left out by the selection)` : ""}.`);
    });
}

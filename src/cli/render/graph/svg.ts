import { createRequire } from "node:module";
import { UserError } from "../../../core/diagnostic.js";

/** The part of `@viz-js/viz` (Graphviz compiled to WebAssembly) Cairn uses: its types may be absent. */
interface Viz {
  renderString(dot: string, options: { format: "svg"; engine?: string }): string;
}

/** The most nodes an SVG is laid out for: past it Graphviz takes minutes and the picture is unreadable. */
export const SVG_NODE_LIMIT = 2000;

/**
 * `@viz-js/viz`, found from the first of `bases` that can require it (the user's project, then Cairn's own
 * folder). It is an optional peer dependency, loaded only to draw SVG: missing, one message says to install it.
 *
 * @example const viz = await loadViz([join(dir, "noop.js"), import.meta.url]);
 */
export async function loadViz(bases: readonly string[]): Promise<Viz> {
  for (const base of bases) {
    try {
      const mod = createRequire(base)("@viz-js/viz") as { instance(): Promise<Viz> };
      return await mod.instance();
    } catch (e) {
      if ((e as { code?: string }).code !== "MODULE_NOT_FOUND") throw e;
    }
  }
  throw new UserError({
    summary: "Drawing the graph as SVG (--format svg, --html) needs @viz-js/viz, an optional peer dependency of cairn-iac that is not installed.",
    detail: "Run `npm install --save-dev @viz-js/viz`, or write DOT or Mermaid (--format dot, --format mermaid), which need nothing more.",
  });
}

/**
 * The DOT graph laid out and drawn as SVG by Graphviz (WebAssembly: no system package). A graph of more
 * than {@link SVG_NODE_LIMIT} nodes is refused with what narrows it.
 *
 * @example const svg = await renderSvg(renderDot(g, redact), g.nodes.length, [import.meta.url]);
 */
export async function renderSvg(dot: string, nodes: number, bases: readonly string[]): Promise<string> {
  if (nodes > SVG_NODE_LIMIT) {
    throw new UserError({
      summary: `The graph has ${nodes} nodes: too many to lay out as a readable picture (at most ${SVG_NODE_LIMIT}).`,
      detail: "Narrow it with --target <name> and --depth <n>, or --filter <text>; or write it as DOT (--format dot) for other tools.",
    });
  }
  const viz = await loadViz(bases);
  // Graphviz's SVG starts with an XML declaration and a DOCTYPE: an inline SVG in a page wants the element alone.
  const svg = viz.renderString(dot, { format: "svg" });
  return svg.slice(svg.indexOf("<svg"));
}

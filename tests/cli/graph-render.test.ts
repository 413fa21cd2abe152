import { describe, expect, it } from "vitest";
import { instance } from "@viz-js/viz";
import type { Graph } from "../../src/plan/picture/model.js";
import { renderDot } from "../../src/cli/render/graph/dot.js";
import { renderMermaid } from "../../src/cli/render/graph/mermaid.js";
import { loadViz, renderSvg, SVG_NODE_LIMIT } from "../../src/cli/render/graph/svg.js";
import { UserError } from "../../src/core/diagnostic.js";

const same = (t: string) => t;
/** A wait whose predicate quotes text with every character DOT and Mermaid treat specially. */
const tricky: Graph = {
  title: 'app/"dev"',
  nodes: [
    { id: "urn:cairn:dev::app::t:Thing::a", name: 'a "b" \\ c', type: "t:Thing", look: "create", notes: ["+ create"] },
    { id: "urn:cairn:dev::app::cairn:wait::w", name: "w", type: "cairn:wait", look: "wait", notes: ['until a.status == "<ok> #1"'] },
  ],
  edges: [{ from: "urn:cairn:dev::app::t:Thing::a", to: "urn:cairn:dev::app::cairn:wait::w", kind: "polls" }],
  clusters: [],
  hidden: 0,
};

describe("drawing a picture", () => {
  it("writes DOT that Graphviz draws with every label intact, quotes and backslashes included", async () => {
    const svg = (await instance()).renderString(renderDot(tricky, same), { format: "svg" });
    const lines = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#45;/g, "-").replace(/&#160;/g, " "));
    expect(lines).toEqual(['a "b" \\ c', "t:Thing", "+ create", "w", "cairn:wait", 'until a.status == "<ok> #1"', "polls"]);
  });

  it("writes Mermaid with quotes, angle brackets and # as entity codes, a wait as a hexagon", () => {
    const m = renderMermaid(tricky, same);
    expect(m).toContain('n0["a #quot;b#quot; \\ c<br/>t:Thing<br/>+ create"]');
    expect(m).toContain('n1{{"w<br/>cairn:wait<br/>until a.status == #quot;#lt;ok#gt; #35;1#quot;"}}');
    expect(m).toContain("n0 -.->|polls| n1");
  });

  it("passes every name and note through the redaction", () => {
    const redact = (t: string) => t.replace(/status/g, "[secret]");
    for (const text of [renderDot(tricky, redact), renderMermaid(tricky, redact)]) {
      expect(text).toContain("a.[secret] ==");
      expect(text).not.toContain("status");
    }
  });

  it("refuses to lay out more nodes than a readable picture holds, saying how to narrow it", async () => {
    const refused = renderSvg("digraph {}", SVG_NODE_LIMIT + 1, [import.meta.url]);
    await expect(refused).rejects.toThrow(UserError);
    await expect(refused).rejects.toThrow(/--target <name> and --depth <n>, or --filter <text>/);
  });

  it("says to install @viz-js/viz, an optional peer dependency, when it cannot be found", async () => {
    await expect(loadViz(["/nonexistent/noop.js"])).rejects.toThrow(/needs @viz-js\/viz, an optional peer dependency[\s\S]*npm install --save-dev @viz-js\/viz/);
  });
});

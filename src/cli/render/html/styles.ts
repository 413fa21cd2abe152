import { LOOKS, lookNames } from "../graph/looks.js";
import type { Paint } from "../graph/looks.js";

/** The custom properties of each look's colours (`--create-fill`, …) for one colour scheme. */
function lookVars(scheme: "light" | "dark"): string {
  return lookNames()
    .map((look) => {
      const p: Paint = LOOKS[look][scheme];
      return `--${look}-fill:${p.fill};--${look}-stroke:${p.stroke};--${look}-text:${p.text};`;
    })
    .join("");
}

/** Each look's colours applied to its graph nodes, badges and step bars (so dark mode recolours the SVG too). */
function lookRules(): string {
  return lookNames()
    .map((l) =>
      [
        `.node.look-${l} polygon,.node.look-${l} path,.node.look-${l} ellipse{fill:var(--${l}-fill);stroke:var(--${l}-stroke)}`,
        `.node.look-${l} text{fill:var(--${l}-text)}`,
        `.badge.look-${l}{background:var(--${l}-fill);color:var(--${l}-text);border-color:var(--${l}-stroke)}`,
        `.step.look-${l}{border-left-color:var(--${l}-stroke)}`,
      ].join("\n"),
    )
    .join("\n");
}

/**
 * The page's style sheet: light and dark (`prefers-color-scheme`), and print (no controls, every step open,
 * the graph fitted to the page).
 *
 * @example `<style>${pageStyles()}</style>`
 */
export function pageStyles(): string {
  return `
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2937;--muted:#6b7280;--line:#e5e7eb;--panel:#f9fafb;--edge:#64748b;${lookVars("light")}}
@media (prefers-color-scheme:dark){:root{--bg:#0b1120;--fg:#e5e7eb;--muted:#9ca3af;--line:#1f2937;--panel:#111827;--edge:#94a3b8;${lookVars("dark")}}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:80rem;padding:1.5rem;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.15rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{margin:.25rem 0 0;padding:.5rem .75rem;background:var(--panel);border-radius:6px;overflow-x:auto;white-space:pre-wrap;word-break:break-word}
.muted{color:var(--muted)}
.chips{display:flex;flex-wrap:wrap;gap:.4rem;margin:.5rem 0;padding:0;list-style:none}
.badge{display:inline-block;border:1px solid;border-radius:999px;padding:0 .55rem;font-size:12px;white-space:nowrap}
.picture{overflow:auto;border:1px solid var(--line);border-radius:8px;padding:.5rem;background:var(--panel);max-height:80vh}
.picture svg{max-width:100%;height:auto}
.picture svg text{font-family:Helvetica,Arial,"Liberation Sans",sans-serif}
.picture .node text{font-size:10px}
.picture svg>g.graph>polygon{fill:transparent;stroke:none}
.picture .edge path{stroke:var(--edge)}.picture .edge polygon{fill:var(--edge);stroke:var(--edge)}.picture .edge text{fill:var(--muted)}
.picture .cluster polygon,.picture .cluster path{stroke:var(--edge);fill:transparent}.picture .cluster text{fill:var(--muted)}
.picture .node{cursor:pointer}
.step{border-left:4px solid var(--line);margin:.35rem 0;padding:.15rem .6rem;background:var(--bg)}
.step summary{cursor:pointer;list-style-position:outside}
.step:target,.step.hit{outline:2px solid var(--wait-stroke)}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{text-align:left;vertical-align:top;padding:.3rem .5rem;border-bottom:1px solid var(--line)}
input[type=search]{font:inherit;padding:.3rem .5rem;width:min(30rem,100%);background:var(--bg);color:var(--fg);border:1px solid var(--line);border-radius:6px}
.error{color:var(--delete-stroke)}.warning{color:var(--update-stroke)}
${lookRules()}
@media print{
  :root{--bg:#fff;--fg:#000;--panel:#fff;${lookVars("light")}}
  body{max-width:none;padding:0;font-size:11pt}
  .controls{display:none}
  .picture{max-height:none;overflow:visible;border:none;page-break-inside:avoid}
  .step{page-break-inside:avoid}
  h2{page-break-after:avoid}
  pre{white-space:pre-wrap}
}
`;
}

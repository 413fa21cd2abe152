// A small SVG line plot for the scaling figures (bench/scale.ts): log-log axes, one panel per measure, no
// dependencies. On log-log axes a linear cost is a line of slope 1 whatever its constant, so a bend upward
// is superlinear growth.

/** One line of a panel: its name, colour and points (x = resources, y = the measure). */
export interface Series {
  name: string;
  color: string;
  points: { x: number; y: number }[];
}

/** One panel: a title, the unit of its y axis, and its lines. */
export interface Panel {
  title: string;
  unit: string;
  series: Series[];
}

const W = 460;
const H = 320;
const M = { left: 64, right: 16, top: 36, bottom: 48 };

/** Powers of ten (and 3×) spanning [lo, hi], for grid lines and labels. */
function ticks(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of [1, 3]) {
      const v = m * 10 ** e;
      if (v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
    }
  }
  return out;
}

/** `1k`, `300k`, `0.3`-style short labels for resource counts; plain numbers (`3,000`) for measures. */
function label(v: number, short: boolean): string {
  if (short && v >= 1e6) return `${v / 1e6}M`;
  if (short && v >= 1e3) return `${v / 1e3}k`;
  return Number(v.toPrecision(2)).toLocaleString("en");
}

const f1 = (v: number) => v.toFixed(1);

/** The [lo, hi] of every point's coordinate, widened to whole powers of ten. */
function range(values: number[]): [number, number] {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return [10 ** Math.floor(Math.log10(lo)), 10 ** Math.ceil(Math.log10(hi))];
}

function panelSvg(panel: Panel, dx: number): string {
  const points = panel.series.flatMap((s) => s.points);
  const [x0, x1] = range(points.map((p) => p.x));
  const [y0, y1] = range(points.map((p) => p.y));
  const px = (x: number) => dx + M.left + ((Math.log10(x) - Math.log10(x0)) / (Math.log10(x1) - Math.log10(x0))) * (W - M.left - M.right);
  const py = (y: number) => H - M.bottom - ((Math.log10(y) - Math.log10(y0)) / (Math.log10(y1) - Math.log10(y0))) * (H - M.top - M.bottom);
  const parts: string[] = [`<text x="${dx + W / 2}" y="20" text-anchor="middle" font-weight="bold">${panel.title}</text>`];
  for (const t of ticks(x0, x1)) {
    parts.push(`<line x1="${f1(px(t))}" y1="${M.top}" x2="${f1(px(t))}" y2="${H - M.bottom}" stroke="#ddd"/>`, `<text x="${f1(px(t))}" y="${H - M.bottom + 16}" text-anchor="middle">${label(t, true)}</text>`);
  }
  for (const t of ticks(y0, y1)) {
    parts.push(`<line x1="${dx + M.left}" y1="${f1(py(t))}" x2="${dx + W - M.right}" y2="${f1(py(t))}" stroke="#ddd"/>`, `<text x="${dx + M.left - 6}" y="${f1(py(t) + 4)}" text-anchor="end">${label(t, false)}</text>`);
  }
  parts.push(`<text x="${dx + W / 2}" y="${H - 10}" text-anchor="middle">resources (log)</text>`);
  parts.push(`<text x="${dx + 14}" y="${H / 2}" text-anchor="middle" transform="rotate(-90 ${dx + 14} ${H / 2})">${panel.unit} (log)</text>`);
  panel.series.forEach((s, i) => {
    const path = s.points.map((p, j) => `${j ? "L" : "M"}${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(" ");
    parts.push(`<path d="${path}" fill="none" stroke="${s.color}" stroke-width="2"/>`);
    for (const p of s.points) parts.push(`<circle cx="${px(p.x).toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="3" fill="${s.color}"/>`);
    parts.push(`<text x="${dx + M.left + 8}" y="${M.top + 14 + i * 16}" fill="${s.color}">${s.name}</text>`);
  });
  return parts.join("\n");
}

/**
 * The panels side by side as one SVG document, with a caption line under them.
 * @example await writeFile("scale.svg", plotSvg([{ title: "Time", unit: "s", series }], "Node 20, 2 cores"));
 */
export function plotSvg(panels: Panel[], caption: string): string {
  const width = W * panels.length;
  const body = panels.map((p, i) => panelSvg(p, i * W)).join("\n");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${H + 24}" viewBox="0 0 ${width} ${H + 24}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    body,
    `<text x="${width / 2}" y="${H + 16}" text-anchor="middle" fill="#555">${caption}</text>`,
    `</svg>`,
    "",
  ].join("\n");
}

import type { Look } from "../../../plan/picture/model.js";

/** Two colours of a node: its fill and its border (and text, when the fill is dark). */
export interface Paint {
  fill: string;
  stroke: string;
  text: string;
}

/** How one {@link Look} is drawn: its legend word, colours in light and dark mode, and shapes. */
export interface LookStyle {
  /** The legend's word for it. */
  word: string;
  light: Paint;
  dark: Paint;
  /** Graphviz's shape and style. */
  dot: { shape: string; style: string };
  /** Mermaid's brackets around the label: `["…"]` is a box. */
  mermaid: [string, string];
}

const box = { shape: "box", style: "rounded,filled" };
const text = { light: "#1f2937", dark: "#e5e7eb" };

/**
 * Every look's style, in legend order: a `Record` over {@link Look}, so a new look does not compile until
 * it is given one. Colours follow the terminal's (green create, yellow update, magenta replace, red
 * delete, blue wait, cyan read); data loss is the one dark fill.
 */
export const LOOKS: Readonly<Record<Look, LookStyle>> = {
  create: { word: "create", light: { fill: "#dcfce7", stroke: "#15803d", text: text.light }, dark: { fill: "#14532d", stroke: "#4ade80", text: text.dark }, dot: box, mermaid: ["[", "]"] },
  update: { word: "update", light: { fill: "#fef9c3", stroke: "#a16207", text: text.light }, dark: { fill: "#713f12", stroke: "#facc15", text: text.dark }, dot: box, mermaid: ["[", "]"] },
  "replace-create-first": { word: "replace, create first", light: { fill: "#f3e8ff", stroke: "#7e22ce", text: text.light }, dark: { fill: "#581c87", stroke: "#c084fc", text: text.dark }, dot: box, mermaid: ["[", "]"] },
  "replace-delete-first": { word: "replace, delete first", light: { fill: "#fce7f3", stroke: "#be185d", text: text.light }, dark: { fill: "#831843", stroke: "#f472b6", text: text.dark }, dot: { shape: "box", style: "rounded,filled,dashed" }, mermaid: ["[", "]"] },
  delete: { word: "delete", light: { fill: "#fee2e2", stroke: "#b91c1c", text: text.light }, dark: { fill: "#7f1d1d", stroke: "#f87171", text: text.dark }, dot: box, mermaid: ["[", "]"] },
  "data-loss": { word: "data loss", light: { fill: "#b91c1c", stroke: "#450a0a", text: "#ffffff" }, dark: { fill: "#dc2626", stroke: "#fecaca", text: "#ffffff" }, dot: { shape: "octagon", style: "filled,bold" }, mermaid: ["{{", "}}"] },
  read: { word: "read", light: { fill: "#e0f2fe", stroke: "#0369a1", text: text.light }, dark: { fill: "#0c4a6e", stroke: "#38bdf8", text: text.dark }, dot: box, mermaid: ["(", ")"] },
  wait: { word: "wait", light: { fill: "#dbeafe", stroke: "#1d4ed8", text: text.light }, dark: { fill: "#1e3a8a", stroke: "#60a5fa", text: text.dark }, dot: { shape: "hexagon", style: "filled" }, mermaid: ["{{", "}}"] },
  deferred: { word: "deferred", light: { fill: "#f1f5f9", stroke: "#475569", text: text.light }, dark: { fill: "#1e293b", stroke: "#94a3b8", text: text.dark }, dot: { shape: "parallelogram", style: "filled,dashed" }, mermaid: ["[/", "/]"] },
  same: { word: "unchanged", light: { fill: "#f8fafc", stroke: "#94a3b8", text: "#475569" }, dark: { fill: "#111827", stroke: "#4b5563", text: "#9ca3af" }, dot: box, mermaid: ["[", "]"] },
  resource: { word: "resource", light: { fill: "#eef2f7", stroke: "#475569", text: text.light }, dark: { fill: "#1f2937", stroke: "#94a3b8", text: text.dark }, dot: box, mermaid: ["[", "]"] },
};

/**
 * The looks, in legend order.
 * @example lookNames()[0] // "create"
 */
export function lookNames(): Look[] {
  return Object.keys(LOOKS) as Look[];
}

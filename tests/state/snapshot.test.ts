import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashText, serialAtHead, snapshotChunks, snapshotHead, snapshotRecordCount } from "../../src/state/snapshot.js";
import { emptyState } from "../../src/state/types.js";
import { resource } from "./helpers.js";

const whole = (text: string) => createHash("sha256").update(text).digest("base64");

describe("hashText: a snapshot's digest, fed a piece at a time", () => {
  it("hashes the text's UTF-8 bytes whatever the piece size, a surrogate pair never split between pieces", () => {
    const text = `{"name": "ünïcödé 🪨 cairn 🏔️ ${"x".repeat(37)} 𝄞𝄞𝄞"}`;
    for (let piece = 1; piece <= 12; piece++) expect(hashText(text, text.length, piece).digest("base64"), `piece ${piece}`).toBe(whole(text));
  });

  it("stops at the given end (the digest covers every byte before its own field)", () => {
    const text = "abc🪨def, tail";
    const end = text.indexOf(",");
    expect(hashText(text, end, 3).digest("base64")).toBe(whole(text.slice(0, end)));
  });

  it("matches the digest a snapshot is written with", () => {
    const state = { ...emptyState("proj", "dev"), resources: { [resource("a").urn]: { ...resource("a"), outputs: { note: "🪨".repeat(40_000) } } } };
    const text = [...snapshotChunks(state)].join("");
    const at = text.lastIndexOf(',\n "digest": "');
    expect(text).toContain(`"digest": "sha256-${hashText(text, at, 1000).digest("base64")}"`);
  });
});

describe("snapshotHead: a snapshot's outputs without its resources", () => {
  const expected = { project: "proj", stack: "dev" };
  const state = {
    ...emptyState("proj", "dev"),
    serial: 7,
    outputs: { url: "https://x", nested: { "resources": { a: 1 }, text: 'a\n "resources": {' }, token: { $secret: "v1:abc" } },
    secretOutputs: ["token"],
    resources: { [resource("a").urn]: resource("a"), [resource("b").urn]: resource("b") },
  };
  const text = [...snapshotChunks(state)].join("");
  /** `text` with its digest made again over what comes before it (a file "as written" whatever it holds). */
  const redigested = (t: string) => {
    const at = t.lastIndexOf(',\n "digest": "');
    return `${t.slice(0, at)},\n "digest": "sha256-${whole(t.slice(0, at))}"\n}\n`;
  };

  it("reads everything before the resources of a snapshot as written, outputs that look like the resources field included", () => {
    const { resources: _r, ...head } = state;
    expect(snapshotHead(text, expected)).toEqual(head);
    const none = [...snapshotChunks({ ...state, resources: {} })].join("");
    expect(snapshotHead(none, expected)?.outputs).toEqual(state.outputs);
  });

  it("counts the records by their lines, whatever their values hold", () => {
    expect(snapshotRecordCount(text)).toBe(2);
    expect(snapshotRecordCount([...snapshotChunks({ ...state, resources: {} })].join(""))).toBe(0);
    const odd = { ...resource("c"), inputs: { text: 'x\n  "y": {', key: "\n  \"" } };
    const three = [...snapshotChunks({ ...state, resources: { ...state.resources, [odd.urn]: odd } })].join("");
    expect(snapshotHead(three, expected)).toBeDefined();
    expect(snapshotRecordCount(three)).toBe(3);
  });

  it("never parses the resources: a text whose resources are not JSON, but whose digest matches, still gives its head", () => {
    const broken = redigested(text.replace('"inputs":', '"inputs" BROKEN'));
    expect(() => JSON.parse(broken)).toThrow();
    expect(snapshotHead(broken, expected)?.serial).toBe(7);
  });

  it("gives nothing (the caller parses the whole file) for a text edited or damaged, another stack's, or another format version", () => {
    expect(snapshotHead(text.replace("https://x", "https://y"), expected)).toBeUndefined();
    expect(snapshotHead(text.slice(0, text.length / 2), expected)).toBeUndefined();
    expect(snapshotHead(text, { project: "proj", stack: "prod" })).toBeUndefined();
    expect(snapshotHead(redigested(text.replace('"version": 1', '"version": 0')), expected)).toBeUndefined();
    expect(snapshotHead(JSON.stringify(state), expected)).toBeUndefined();
  });
});

describe("serialAtHead: which version a snapshot is, from its first lines", () => {
  it("reads the serial of a snapshot as written, whatever its project and stack are called", () => {
    for (const [project, stack] of [["proj", "dev"], ['we"ird\\name', "prod-eu.1"], ["ünï", "dev"]]) {
      const text = [...snapshotChunks({ ...emptyState(project!, stack!), serial: 42 })].join("");
      expect(serialAtHead(text.slice(0, 200)), project).toBe(42);
    }
  });

  it("gives nothing (the caller reads the file whole) for first lines written otherwise", () => {
    const state = { ...emptyState("proj", "dev"), serial: 42 };
    expect(serialAtHead(JSON.stringify(state, null, 2))).toBeUndefined();
    expect(serialAtHead(JSON.stringify(state))).toBeUndefined();
    expect(serialAtHead([...snapshotChunks(state)].join("").replace('"serial": 42', '"serial": "42"'))).toBeUndefined();
    expect(serialAtHead("")).toBeUndefined();
  });
});

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashText, snapshotChunks } from "../../src/state/snapshot.js";
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

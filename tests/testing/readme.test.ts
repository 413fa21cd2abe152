import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const REPO = resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(join(REPO, file), "utf8");
/** A link's target is a file (typedoc, which publishes the README and guides, refuses a folder). */
const isFile = (path: string) => existsSync(path) && statSync(path).isFile();
const EXAMPLE = "examples/acm-certificate/readme.test.ts";

/** The text of `doc` from the heading `start` to the next heading of the same level (or the end). */
function section(doc: string, start: string): string {
  const text = read(doc);
  const at = text.indexOf(start);
  if (at < 0) throw new Error(`${doc} has no "${start}"`);
  const level = /^#+/.exec(start)![0];
  const end = text.indexOf(`\n${level} `, at + 1);
  return text.slice(at, end < 0 ? undefined : end);
}

/** The first ```ts block of `text`. */
const tsBlock = (text: string) => /```ts\n([\s\S]*?)```/.exec(text)?.[1];

describe("the testing docs show tests that pass", () => {
  it("the testing guide's complete example is examples/acm-certificate/readme.test.ts, whole", () => {
    expect(tsBlock(section("docs/guides/testing.md", "## A complete example"))).toBe(read(EXAMPLE));
  });

  it("every line of the README's Testing snippet is a line of that example, so the snippet a reader copies is one that runs", () => {
    const lines = (code: string) => code.split("\n").map((l) => l.replace(/\s+\/\/ .*$/, "").trim()).filter(Boolean);
    const snippet = lines(tsBlock(section("README.md", "## Testing")) ?? "");
    const example = new Set(lines(read(EXAMPLE)));

    expect(snippet.length).toBeGreaterThanOrEqual(4);
    expect(snippet.filter((l) => !example.has(l))).toEqual([]);
  });
});

describe("the README's links", () => {
  it("lead to files that exist (not folders), guides and the CLI reference among them", () => {
    const links = [...read("README.md").matchAll(/\]\(((?:docs|bench|CONTRIBUTING)[^)#]*)(?:#[^)]*)?\)/g)].map((m) => m[1]!);

    expect(links.filter((l) => l.startsWith("docs/guides/")).length).toBeGreaterThanOrEqual(10);
    expect(links).toEqual(expect.arrayContaining(["docs/reference/cli.md", "CONTRIBUTING.md", "bench/README.md"]));
    for (const l of links) expect(isFile(join(REPO, l)), l).toBe(true);
  });

  it("every relative link of the guides, the reference, CONTRIBUTING and bench/README leads to a file that exists", () => {
    const docs = ["CONTRIBUTING.md", "bench/README.md", "docs/reference/cli.md", ...readdirMd("docs/guides"), ...readdirMd("docs/design")];
    const broken: string[] = [];
    for (const doc of docs) {
      for (const m of read(doc).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
        if (!isFile(join(REPO, dirname(doc), target))) broken.push(`${doc} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

function readdirMd(dir: string): string[] {
  return readdirSync(join(REPO, dir)).filter((f) => f.endsWith(".md")).map((f) => `${dir}/${f}`);
}

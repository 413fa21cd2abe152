import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const REPO = resolve(import.meta.dirname, "../..");
const readme = readFileSync(join(REPO, "README.md"), "utf8");
const section = readme.slice(readme.indexOf("## Testing: `cairn-iac/testing`"), readme.indexOf("\n## ", readme.indexOf("## Testing: `cairn-iac/testing`") + 1));

describe("the README's Testing section", () => {
  it("shows examples/acm-certificate/readme.test.ts whole, so the test a reader pastes is one that passes", () => {
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];

    expect(block).toBe(readFileSync(join(REPO, "examples/acm-certificate/readme.test.ts"), "utf8"));
  });

  it("links guides that exist", () => {
    const links = [...readme.matchAll(/\]\((docs\/guides\/[^)]+)\)/g)].map((m) => m[1]!);

    expect(links.length).toBeGreaterThanOrEqual(5);
    for (const l of links) expect(existsSync(join(REPO, l)), l).toBe(true);
  });
});

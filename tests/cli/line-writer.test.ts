import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { lineWriter } from "../../src/cli/line-writer.js";
import { afterLines } from "../../src/cli/io.js";

/** A stand-in for process.stdout that records each write call. */
function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, s: { isTTY, write: (t: string) => void writes.push(t), on: () => {} } as unknown as NodeJS.WriteStream };
}

const turn = () => new Promise<void>((r) => setImmediate(r));

describe("lineWriter", () => {
  it("to a file or pipe, writes the lines of one event-loop turn in one call, in order", async () => {
    const { writes, s } = stream(false);
    const out = lineWriter(s);
    out.line("a");
    out.line("b");
    expect(writes).toEqual([]);
    await turn();
    expect(writes).toEqual(["a\nb\n"]);
    out.line("c");
    out.flush();
    expect(writes).toEqual(["a\nb\n", "c\n"]);
  });

  it("does not hold more than 64 KB", () => {
    const { writes, s } = stream(false);
    const out = lineWriter(s);
    for (let i = 0; i < 100; i++) out.line("x".repeat(1000));
    expect(writes.length).toBe(1);
    expect(writes[0]!.length).toBeGreaterThanOrEqual(65_536);
  });

  it("writes a block as large as a batch as it is, after the lines waiting before it", () => {
    const { writes, s } = stream(false);
    const out = lineWriter(s);
    const block = "p".repeat(70_000);
    out.line("before");
    out.line(block);
    expect(writes).toEqual(["before\n", block, "\n"]);
  });

  it("to a terminal too, writes the lines of one event-loop turn in one call", async () => {
    const { writes, s } = stream(true);
    const out = lineWriter(s);
    out.line("live");
    out.line("lines");
    expect(writes).toEqual([]);
    await turn();
    expect(writes).toEqual(["live\nlines\n"]);
  });

  it("a live region drawn on the same terminal writes after the lines waiting before it", () => {
    const { writes, s } = stream(true);
    const out = lineWriter(s);
    const region = afterLines({ update: (t) => void writes.push(`[update ${t}]`), clear: () => void writes.push("[clear]"), done: () => void writes.push("[done]") }, out);
    out.line("before the frame");
    region.update("frame");
    region.clear();
    out.line("between frames");
    region.update("next frame");
    region.done();
    expect(writes).toEqual(["before the frame\n", "[update frame]", "[clear]", "between frames\n", "[update next frame]", "[done]"]);
  });

  it("is one writer per stream", () => {
    const { s } = stream(false);
    expect(lineWriter(s)).toBe(lineWriter(s));
  });

  it("loses nothing when the process exits at once (process.exit, as a second Ctrl-C does)", () => {
    const module = fileURLToPath(new URL("../../src/cli/line-writer.ts", import.meta.url));
    const script = `import { lineWriter } from ${JSON.stringify(module)}; const o = lineWriter(process.stdout); o.line("first"); o.line("last"); process.exit(3);`;
    const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(r.status).toBe(3);
    expect(r.stdout).toBe("first\nlast\n");
  });
});

import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { programIn, run } from "./harness.js";
import { memoryType } from "../helpers.js";
import { RandomPassword } from "../../src/providers/local/random.js";
import { secret } from "../../src/program/output.js";

const box = memoryType<{ v: unknown }>("plan:saved:Box");

const before = process.env.CAIRN_PASSPHRASE;
beforeAll(() => void (process.env.CAIRN_PASSPHRASE = "cli-test"));
afterAll(() => void (before === undefined ? delete process.env.CAIRN_PASSPHRASE : (process.env.CAIRN_PASSPHRASE = before)));

describe("saved plans", () => {
  it("resolve inputs that were unknown and secret at plan time when applied: a provider never sees an unknown marker", async () => {
    // GIVEN a password made in the same run, used directly and through secret(), so unknown and secret at plan time
    const { prog, dir } = await programIn("saved", () => {
      const pw = new RandomPassword("pw", { length: 24 });
      new box.Type("direct", { v: pw.result });
      new box.Type("wrapped", { v: secret(pw.result.apply((p) => `user:${p}`)) });
    });
    const file = join(dir, "plan.json");
    expect((await run(prog, ["preview", "--out", file])).code).toBe(0);
    const r = await run(prog, ["up", "--plan", file, "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    const sent = [...box.objects.values()].map((o) => o.v);
    expect(sent).toHaveLength(2);
    for (const v of sent) expect(typeof v, JSON.stringify(v)).toBe("string");
    expect(sent.find((v) => String(v).startsWith("user:"))).toMatch(/^user:.{24}$/);
    expect(await readFile(file, "utf8")).not.toContain(String(sent[0]));
  });

  it("refuses a plan file edited by hand, and one that is not a plan's shape, naming the file; nothing is applied", async () => {
    const { prog, dir } = await programIn("saved", () => void new box.Type("a", { v: 1 }));
    const file = join(dir, "plan.json");
    expect((await run(prog, ["preview", "--out", file])).code).toBe(0);
    const text = await readFile(file, "utf8");
    box.objects.clear();

    await writeFile(file, text.replace('"v": 1', '"v": 2'));
    const edited = await run(prog, ["up", "--plan", file, "--yes"]);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain(`${file} was changed after \`preview --out\` wrote it (its digest does not match)`);

    const shape = JSON.parse(text) as { plan: { steps: unknown[] } };
    shape.plan.steps = [{ kind: "explode", urn: "urn:x" }];
    await writeFile(file, JSON.stringify(shape));
    const bad = await run(prog, ["up", "--plan", file, "--yes"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(new RegExp(`${file.replace(/[.]/g, "\\.")} is not a valid Cairn plan file: plan\\.steps\\.0`));
    expect(box.objects.size).toBe(0);
  });
});

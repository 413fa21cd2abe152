/**
 * A program of slow resources, as text for a temp project: each create takes `SLOW_MS` (env) and writes one
 * file `objs/<n>` (idempotent by path), so a test can see what exists in the "cloud" while a run is killed,
 * interrupted or locked. `COUNT` (env) resources, `defaultCount` unless set.
 */
export function slowProgram(defaultCount: number): string {
  return `
import { program, defineResource } from "cairn-iac";
import { writeFile, rm, readFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
const Slow = defineResource<{ n: number }, { n: number }>("e2e:Slow", {
  provider: {
    idempotentCreate: true, // objs/<n>: a create made again writes the same file
    async create({ inputs, ctx }) {
      // A mark that the create is in flight, for tests that interrupt a run at that moment.
      await mkdir(join(ctx.workDir, "started"), { recursive: true });
      await writeFile(join(ctx.workDir, "started", String(inputs.n)), "");
      await new Promise((r) => setTimeout(r, Number(process.env.SLOW_MS ?? 0)));
      await mkdir(join(ctx.workDir, "objs"), { recursive: true });
      await writeFile(join(ctx.workDir, "objs", String(inputs.n)), "x");
      return { id: String(inputs.n), outputs: inputs };
    },
    async read({ id, outputs, ctx }) {
      try { await readFile(join(ctx.workDir, "objs", id)); return outputs; } catch { return undefined; }
    },
    async delete({ id, ctx }) { await rm(join(ctx.workDir, "objs", id), { force: true }); },
  },
  schema: { inputs: { n: {} }, outputs: { n: {} } },
});
export default program("slow", () => {
  for (let i = 0; i < Number(process.env.COUNT ?? ${defaultCount}); i++) new Slow("s" + i, { n: i });
});
`;
}

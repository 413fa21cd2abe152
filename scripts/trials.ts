/**
 * `npm run trials`: every bad input of the table (tests/bad-inputs), run through the CLI — in-process where
 * the case allows, as a real `npx tsx infra.ts` process where only a process shows it — each judged clear,
 * harmless or wrong from its exit code, its message, and the state and (fake) cloud before and after (see
 * tests/bad-inputs/classify.ts). Prints the counts per verdict and per area, and every case judged wrong
 * (with `--harmless`, those too); exits 1 if any is wrong. The process cases need `npm run build` first.
 *
 * @module
 */
import { AREAS, table, type Area } from "../tests/bad-inputs/table.js";
import { runTrial } from "../tests/bad-inputs/trial.js";
import { hasBuild, processCases, runProcessCase } from "../tests/bad-inputs/process-cases.js";
import { removeFolders } from "../tests/bad-inputs/run-cli.js";
import type { Judged, Verdict } from "../tests/bad-inputs/classify.js";

const VERDICTS: Verdict[] = ["clear", "harmless", "wrong"];
const showHarmless = process.argv.includes("--harmless");
process.env.CAIRN_PASSPHRASE = "cli-test";

interface Row {
  what: string;
  area: Area;
  judged: Judged;
  ms: number;
  answer: string;
}

const rows: Row[] = [];
const t0 = Date.now();
for (const c of table) {
  const t = await runTrial(c);
  rows.push({ what: c.what, area: c.area, judged: t.judged, ms: t.ms, answer: `${t.outcome.stderr}\n${t.outcome.stdout}`.trim() });
}
await removeFolders();
if (await hasBuild()) {
  for (const c of processCases) {
    const t = await runProcessCase(c);
    rows.push({ what: c.what, area: "process exits", judged: t.judged, ms: t.ms, answer: `${t.outcome.stderr}\n${t.outcome.stdout}`.trim() });
  }
} else {
  console.log(`(the ${processCases.length} process cases need a build: run \`npm run build\` first)`);
}

const count = (rs: Row[], v: Verdict) => rs.filter((r) => r.judged.verdict === v).length;
const pad = (s: string | number, n: number) => String(s).padEnd(n);
const padL = (s: string | number, n: number) => String(s).padStart(n);
console.log(`\nBad-input trials: ${rows.length} cases in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
console.log(`${pad("area", 18)}${VERDICTS.map((v) => padL(v, 10)).join("")}${padL("total", 8)}`);
for (const area of AREAS) {
  const rs = rows.filter((r) => r.area === area);
  console.log(`${pad(area, 18)}${VERDICTS.map((v) => padL(count(rs, v), 10)).join("")}${padL(rs.length, 8)}`);
}
console.log(`${pad("all", 18)}${VERDICTS.map((v) => padL(count(rows, v), 10)).join("")}${padL(rows.length, 8)}`);
const slowest = [...rows].sort((a, b) => b.ms - a.ms)[0];
if (slowest) console.log(`\nslowest: ${slowest.what} (${slowest.ms} ms)`);

const list = (v: Verdict) => {
  const rs = rows.filter((r) => r.judged.verdict === v);
  if (!rs.length) return;
  console.log(`\n${v} (${rs.length}):`);
  for (const r of rs) console.log(`- [${r.area}] ${r.what}: ${r.judged.reasons.join("; ")}\n    ${r.answer.split("\n").slice(0, 3).join("\n    ").slice(0, 400)}`);
};
list("wrong");
if (showHarmless) list("harmless");
process.exitCode = count(rows, "wrong") ? 1 : 0;

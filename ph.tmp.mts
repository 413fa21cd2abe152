import { Program, defineResource } from "/work/main/src/index.js";
import { mkdtemp } from "node:fs/promises";
const N = Number(process.env.N ?? 10000);
const mem = () => { let n = 0; const objs = new Map(); return { async create({ inputs }: any) { const id = "o" + n++; const o = { ...inputs, arn: "arn:" + id }; objs.set(id, o); return { id, outputs: o }; }, async read({ id }: any) { return objs.get(id); }, async update({ news }: any) { return news; }, async delete() {} }; };
const Cert = defineResource<any, any>("b:C", { provider: mem() as any, schema: { inputs: { domainName: { forceNew: true } }, outputs: { domainName: {}, arn: { stable: true } } } });
const Rec = defineResource<any, any>("b:R", { provider: mem() as any, schema: { inputs: { name: { forceNew: true }, value: {} }, outputs: { name: {}, value: {} } } });
const prog = new Program("bench", () => { for (let i = 0; i < N / 2; i++) { const c = new Cert(`c-${i}`, { domainName: `d${i}` }); new Rec(`r-${i}`, { name: `n${i}`, value: c.arn }); } }, { dir: "/tmp", command: "x" });
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const out: Record<string, number> = {};
for (let rep = 0; rep < 3; rep++) {
  const dir = await mkdtemp("/tmp/cb-");
  const stack = prog.stack({ stateDir: dir });
  let t = cpu();
  await prog.evaluate({ stack: "dev" }); const e = cpu() - t; t = cpu();
  await stack.preview(); const p = cpu() - t; t = cpu();
  await stack.up(); const u = cpu() - t; t = cpu();
  await stack.preview(); const n = cpu() - t;
  for (const [k, v] of Object.entries({ evaluate: e, previewEmpty: p, up: u, previewNoop: n })) out[k] = Math.min(out[k] ?? Infinity, Math.round(v));
}
console.log(process.env.LABEL, JSON.stringify(out));

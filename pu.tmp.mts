import { Program, defineResource } from "/work/main/src/index.js";
import { mkdtemp } from "node:fs/promises";
const N = 10000;
const mem = () => { let n = 0; const objs = new Map(); return { async create({ inputs }: any) { const id = "o" + n++; const o = { ...inputs, arn: "arn:" + id }; objs.set(id, o); return { id, outputs: o }; }, async read({ id }: any) { return objs.get(id); }, async update({ news }: any) { return news; }, async delete() {} }; };
const Cert = defineResource<any, any>("b:C", { provider: mem() as any, schema: { inputs: { domainName: { forceNew: true } }, outputs: { domainName: {}, arn: { stable: true } } } });
const Rec = defineResource<any, any>("b:R", { provider: mem() as any, schema: { inputs: { name: { forceNew: true }, value: {} }, outputs: { name: {}, value: {} } } });
const prog = new Program("bench", () => { for (let i = 0; i < N / 2; i++) { const c = new Cert(`c-${i}`, { domainName: `d${i}` }); new Rec(`r-${i}`, { name: `n${i}`, value: c.arn }); } }, { dir: "/tmp", command: "x" });
for (let rep = 0; rep < 2; rep++) {
  const stack = prog.stack({ stateDir: await mkdtemp("/tmp/cb-") });
  await stack.up();
  await stack.preview();
}

// Compile-time tests for lifted property access on outputs: checked by `tsc --noEmit` (the project's
// typecheck includes tests/), never executed. Each `@ts-expect-error` must be needed, or tsc fails with
// "Unused '@ts-expect-error' directive".
import { all, defineResource, interpolate, output, secret, wait, type Input, type Output, type Provider } from "../../src/index.js";
import { DBInstance } from "../../src/providers/aws/services/rds.js";

interface ThingIn { name: string }
interface ThingOut {
  name: string;
  meta: { owner: string; tags?: string[]; nested: { depth: number } };
  maybe?: { value: string };
  endpoints: { host: string; port: number }[];
  either: string | { text: string };
  record: Record<string, string>;
  clash: { apply: string; label: string; then: number; ok: boolean };
}
declare const provider: Provider<ThingIn, ThingOut>;

export function typeTests(): void {
  // The line: a field of a wait's attribute is an Output of the field's type, no `.apply` needed.
  const db = new DBInstance("db", { engine: "postgres", dbInstanceClass: "db.t4g.micro" });
  const ready = wait(db, { until: (d) => d.dbInstanceStatus.eq("available") });
  const host: Output<string> = ready.endpoint.address;
  const port: Output<string> = db.endpoint.port;
  const stackOutputs = { dbHost: ready.endpoint.address, url: interpolate`postgres://${ready.endpoint.address}:${port}` };
  void [host, stackOutputs];

  const Thing = defineResource<ThingIn, ThingOut>("t:lift:Thing", { provider });
  const t = new Thing("t", { name: "a" });
  const owner: Output<string> = t.meta.owner;
  const depth: Output<number> = t.meta.nested.depth;
  const tags: Output<string[] | undefined> = t.meta.tags; // an optional field: the output is there, its value may not be
  const maybe: Output<string | undefined> = t.maybe.value; // a field of an optional object may be undefined
  const first: Output<{ host: string; port: number } | undefined> | undefined = t.endpoints[0];
  const count: Output<number> = t.endpoints.length;
  void [owner, depth, tags, maybe, first, count];

  // A lifted field is an input like any output, and lifts again through all/apply/secret.
  const asInput: Input<string> = t.meta.owner;
  const fromAll: Output<string> = all({ a: t.meta.owner }).a;
  const fromApply: Output<number> = t.meta.apply((m) => m.nested).depth;
  const fromSecret: Output<number> = secret({ n: 1 }).n;
  const fromOutput: Output<boolean> = output({ deep: { flag: true } }).deep.flag;
  void [asInput, fromAll, fromApply, fromSecret, fromOutput];

  // Members of the Output win: a field named like one is reached through apply.
  const applied: Output<string> = t.clash.apply((c) => c.apply);
  const ok: Output<boolean> = t.clash.ok;
  // @ts-expect-error `label` is the output's own (internal) member, not the field: use apply
  const label: Output<string> = t.clash.label;
  // @ts-expect-error `then` is never lifted (an output is not a promise)
  void t.clash.then;
  void [applied, ok, label];

  // @ts-expect-error misspelt field
  void t.meta.ownr;
  // @ts-expect-error a string has no lifted fields (its methods are not data)
  void t.name.length;
  // @ts-expect-error a union with a plain value lifts nothing (which field would a string have?)
  void t.either.text;
  // @ts-expect-error a record's fields are reached through apply (any name would type-check)
  void t.record.anything;
  // @ts-expect-error a lifted field keeps its type: a number is not a string
  const wrong: Output<string> = t.meta.nested.depth;
  void wrong;

  // Outputs of different shapes stay assignable as before (lifting adds no requirement of its own).
  const wider: Output<{ owner: string }> = t.meta;
  void wider;
}

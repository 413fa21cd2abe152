// What outputs cost on the hot path: making 100,000 of them (`output(v)`, a resource attribute, `apply`),
// settling them, and reading a field of one lifted (`o.endpoint.address`) against `apply((e) => e.address)`.
// The fastest of 10 runs after 2 warm-ups, per row (the machine is shared: the fastest is the least disturbed).
//   npx tsx bench/probe/outputs.ts
import { newResolverId, output, type Output } from "../../src/program/output.js";
import { attributeOutput } from "../../src/program/attribute-output.js";
import type { ResourceNode } from "../../src/program/node.js";
import type { Resolver } from "../../src/program/resolver.js";

const N = 100_000;
const RUNS = 12;
const WARM = 2;

const nodes = Array.from({ length: N }, (_, i) => ({ name: `n${i}`, urn: `u${i}` }) as unknown as ResourceNode & { attributes?: unknown });
/** Every attribute is known at once: an `endpoint` object, as after a resource was applied. */
const resolver = (): Resolver => ({
  id: newResolverId(),
  attribute: () => { throw new Error("peekAttribute answers every read"); },
  whole: () => { throw new Error("not read"); },
  peekAttribute: (n) => ({ known: true, value: { address: n.name }, secret: false, deps: [n] }),
});

/** Milliseconds `f` takes. */
function timed<T>(f: () => T): [number, T] {
  const t = performance.now();
  const v = f();
  return [performance.now() - t, v];
}

function once(): Record<string, number> {
  for (const n of nodes) delete n.attributes;
  const [made] = timed(() => nodes.map((_, i) => output(i)));
  const [attrs, endpoints] = timed(() => nodes.map((n) => attributeOutput(n, "endpoint") as Output<{ address: string }>));
  const [applied, byApply] = timed(() => endpoints.map((o) => o.apply((e) => e.address)));
  const [lifted, byField] = timed(() => endpoints.map((o) => o.address));
  const r1 = resolver();
  const [resolveApplied] = timed(() => byApply.forEach((o) => o.resolveNow(r1)));
  const r2 = resolver();
  const [resolveLifted] = timed(() => byField.forEach((o) => o.resolveNow(r2)));
  return {
    "output(v)": made, "resource attribute": attrs, "apply((e) => e.address)": applied, "o.address (lifted)": lifted,
    "resolve the applies": resolveApplied, "resolve the lifted": resolveLifted,
  };
}

const best: Record<string, number> = {};
for (let i = 0; i < RUNS; i++) {
  const row = once();
  if (i < WARM) continue;
  for (const [k, v] of Object.entries(row)) best[k] = Math.min(best[k] ?? Infinity, v);
}
for (const [k, v] of Object.entries(best)) process.stdout.write(`${`${k} ×${N.toLocaleString("en")}`.padEnd(36)} ${v.toFixed(1)} ms\n`);

// Declarations at known lines: tests/program/declaration-site.test.ts checks that messages name them.
// Keep every declaration on the line its comment says.
import { defineResource } from "../../../src/program/define.js";
import { wait } from "../../../src/wait/wait.js"; import { ComponentResource } from "../../../src/program/resource.js"; // one line: the lines below are checked
import type { Provider } from "../../../src/provider/provider.js";

const provider: Provider<{ v: number }, { v: number }> = {
  check: ({ inputs }) => (inputs.v < 0 ? [{ severity: "error", attribute: "v", summary: "must not be negative" }] : []),
  async create({ inputs }) {
    if (inputs.v === 13) throw new Error("the cloud refused v=13");
    return { id: `id-${inputs.v}`, outputs: { v: inputs.v } };
  },
  async read({ outputs }) {
    return outputs;
  },
  async delete() {},
};
export const Thing = defineResource<{ v: number }, { v: number }>("sites:test:Thing", { provider, schema: { inputs: { v: {} }, outputs: { v: {} } } });

/** A resource whose create fails. */
export function failingCreate(): void {
  new Thing("unlucky", { v: 13 }); // line 22
}

/** A resource whose inputs fail the provider's check. */
export function failingCheck(): void {
  new Thing("negative", { v: -1 }); // line 27
}

/** A resource, a wait on it and a lookup, each on its own line. */
export function everyKind(): void {
  const t = new Thing("fine", { v: 1 }); // line 32
  wait(t, { until: (a) => a.v.eq(1) }); // line 33
  Thing.get("found", "id-1"); // line 34
}

/** Three resources from one line (a loop), then one from the next line. */
export function loop(): void {
  for (let i = 0; i < 3; i++) new Thing(`many-${i}`, { v: i }); // line 39
  new Thing("after", { v: 9 }); // line 40
}

/** A user's subclass of a defined type, and a component declaring a child: each site is the user's line. */
class BigThing extends Thing {
  constructor(name: string) {
    super(name, { v: 100 });
  }
}
class Pair extends ComponentResource {
  constructor(name: string) {
    super("sites:test:Pair", name);
    new Thing(`${name}-child`, { v: 2 }, { parent: this }); // line 52
  }
}
export function subclasses(): void {
  new BigThing("big"); // line 56: the user's `new`, not the subclass's `super`
  new Pair("pair"); // line 57
}

import { defineResource } from "../../src/program/define.js";
import type { ProgramFn } from "../../src/entry/program.js";
import type { Provider } from "../../src/provider/provider.js";
import { argv, type Case } from "./case.js";
// The AWS SDK's error names (IdempotentParameterMismatch) are known as the package entry knows them.
import "../../src/providers/aws/error-kinds.js";

// Providers that answer badly: throwing things that are not Errors, returning what cannot be recorded,
// refusing for good behind a 5xx. Each answer is one message naming the resource; nothing is recorded wrongly.

type Props = Record<string, unknown>;

/** A provider whose every operation a case can make misbehave; it stores only what it made properly. */
export const rogue = {
  objects: new Map<string, Props>(),
  next: 1,
  on: {} as Partial<Record<"create" | "update" | "delete" | "read" | "check", () => unknown>>,
};

const provider: Provider<Props, Props> = {
  check: () => (rogue.on.check ? (rogue.on.check() as never) : []),
  async create({ inputs }) {
    if (rogue.on.create) return rogue.on.create() as never;
    const id = `r-${rogue.next++}`;
    rogue.objects.set(id, { ...inputs });
    return { id, outputs: { ...inputs } };
  },
  async read({ id }) {
    if (rogue.on.read) return rogue.on.read() as never;
    const o = rogue.objects.get(id);
    return o ? { ...o } : undefined;
  },
  async update({ id, news }) {
    if (rogue.on.update) return rogue.on.update() as never;
    rogue.objects.set(id, { ...news });
    return { ...news };
  },
  async delete({ id }) {
    if (rogue.on.delete) return void rogue.on.delete();
    rogue.objects.delete(id);
  },
};
const Rogue = defineResource<Props, Props>("bad:rogue:Thing", { provider, schema: { inputs: { v: {} }, outputs: { v: {} } } });

let v = 1;
const oneRogue: ProgramFn = () => void new Rogue("r", { v });

/** A case whose `op` misbehaves as `how` says, reset afterwards. */
function misbehave(what: string, op: keyof typeof rogue.on, how: () => unknown, message: RegExp, extra: Partial<Case> = {}): Case {
  return {
    what,
    argv: argv("up", "--yes"),
    code: 1,
    program: oneRogue,
    message,
    ...extra,
    before: async (dir) => {
      rogue.on[op] = how;
      await extra.before?.(dir);
    },
    after: async () => {
      rogue.on = {};
      v = 1;
    },
  };
}

const cyclic = () => {
  const o: Props = {};
  o.me = o;
  return o;
};
const thrownValues: [string, unknown, RegExp][] = [
  ["a string", "quota exceeded", /quota exceeded/],
  ["null", null, /the provider of bad:rogue:Thing threw null instead of an Error, so there is no message to show/],
  ["undefined", undefined, /the provider of bad:rogue:Thing threw undefined instead of an Error/],
  ["a plain object", { code: "E_QUOTA", limit: 5 }, /the provider of bad:rogue:Thing threw a plain object instead of an Error: \{"code":"E_QUOTA","limit":5\}/],
  ["a number", 503, /the provider of bad:rogue:Thing threw the number 503 instead of an Error/],
  ["an Error without a message", new Error(""), /the provider of bad:rogue:Thing threw Error without a message/],
];
const badResults: [string, unknown, RegExp][] = [
  ["null", null, /the provider of bad:rogue:Thing returned null from create instead of \{ id, outputs \}/],
  ["undefined", undefined, /the provider of bad:rogue:Thing returned undefined from create instead of \{ id, outputs \}/],
  ["no id", { outputs: {} }, /the provider of bad:rogue:Thing returned no id from create \(got undefined\)/],
  ["an empty id", { id: "", outputs: {} }, /the provider of bad:rogue:Thing returned no id from create \(got ""\)/],
  ["a number as id", { id: 42, outputs: {} }, /the provider of bad:rogue:Thing returned no id from create \(got 42\)/],
  ["null outputs", { id: "x", outputs: null }, /the provider of bad:rogue:Thing returned null outputs instead of an object/],
  ["outputs that are a list", { id: "x", outputs: [1] }, /the provider of bad:rogue:Thing returned a list outputs instead of an object/],
  ["a NaN output", { id: "x", outputs: { n: Number.NaN } }, /returned outputs that are not plain data \(output "n" is NaN, which is not a finite number: pass a finite number, or null\)/],
  ["an Infinity output", { id: "x", outputs: { n: Number.POSITIVE_INFINITY } }, /output "n" is Infinity, which is not a finite number/],
  ["a bigint output", { id: "x", outputs: { n: 5n } }, /output "n" is a bigint: pass it as a string or a number/],
  ["a function output", { id: "x", outputs: { f: () => 1 } }, /output "f" is a function/],
  ["a Date output", { id: "x", outputs: { at: new Date(0) } }, /output "at" is a Date/],
  ["a Map output", { id: "x", outputs: { m: new Map() } }, /output "m" is a Map/],
  ["a cyclic output", { id: "x", outputs: { c: cyclic() } }, /output "c\.me" refers back to "c" \(a cyclic object\)/],
];

export const providerCases: Case[] = [
  ...thrownValues.map(([what, e, message]) => misbehave(`a provider whose create throws ${what}`, "create", () => { throw e; }, message)),
  ...badResults.map(([what, r, message]) => misbehave(`a provider whose create returns ${what}`, "create", () => r, message)),
  misbehave("a 5xx that is a refusal (an idempotency-token conflict), never retried", "create", () => {
    throw Object.assign(new Error("The client token was already used for a different request"), { name: "IdempotentParameterMismatch", $fault: "server", $metadata: { httpStatusCode: 500 } });
  }, /The client token was already used for a different request/),
  misbehave("a provider check that reports an error", "check", () => [{ severity: "error", attribute: "v", message: "must be below 0" }], /"r" \(bad:rogue:Thing\), input "v": must be below 0/),
  misbehave("a provider check that throws a string", "check", () => { throw "check exploded"; }, /Planning "r" \(bad:rogue:Thing\) failed: check exploded/),
  misbehave("a provider whose update throws a plain object", "update", () => { throw { status: "DENIED" }; }, /the provider of bad:rogue:Thing threw a plain object instead of an Error: \{"status":"DENIED"\}/, {
    setup: oneRogue,
    before: async () => void (v = 2),
  }),
  misbehave("a provider whose delete throws null", "delete", () => { throw null; }, /the provider of bad:rogue:Thing threw null instead of an Error/, { setup: oneRogue, argv: argv("destroy", "--yes") }),
  misbehave("a provider whose read throws during refresh", "read", () => { throw "read exploded"; }, /read exploded/, { setup: oneRogue, argv: argv("refresh", "--yes") }),
  misbehave("a replacement whose create hands back the old object", "create", () => ({ id: "r-old", outputs: {} }), /returned the id of the object it was replacing \("r-\d+"\) from the create of its replacement: a replacement must be a new object/, {
    setup: oneRogue,
    argv: () => ["up", "--yes", "--replace", "urn:cairn:dev::bad::bad:rogue:Thing::r"],
    before: async () => {
      // The object in state is r-<n>: hand back exactly that id.
      const id = [...rogue.objects.keys()].at(-1)!;
      rogue.on.create = () => ({ id, outputs: {} });
    },
  }),
];

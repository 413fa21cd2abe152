import { ComponentResource } from "../../src/program/resource.js";
import { output } from "../../src/program/output.js";
import type { ProgramFn } from "../../src/entry/program.js";
import { wait } from "../../src/wait/wait.js";
import { memoryType } from "../helpers.js";
import { argv, type Case } from "./case.js";
import { box } from "./cloud.js";

// The program API: what a program declares, with which options and inputs (exit 1, naming the resource and option).

const Box = box.Type;
const OtherPkg = { package: "other", name: "p", settings: {} };
/** A callback made at module level, outside any program: a resource it declares belongs to none. */
const early = output(1).apply(() => new Box("inner", {}).v);
const typed = memoryType<Record<string, unknown>>("bad:in:Typed", {
  inputs: { s: { type: "string" }, n: { type: "number" }, b: { type: "boolean" }, o: { type: "object" }, a: { type: "array" }, e: { type: "string", enum: ["small", "large"] } },
  outputs: {},
});

const preview = (what: string, program: ProgramFn, message: RegExp, extra: Partial<Case> = {}): Case => ({ what, program, argv: argv("preview"), code: 1, message, ...extra });
const up = (what: string, program: ProgramFn, message: RegExp, extra: Partial<Case> = {}): Case => ({ what, program, argv: argv("up", "--yes"), code: 1, message, ...extra });

class Point {
  constructor(readonly x = 1) {}
}
const cyclicObject = () => {
  const o: Record<string, unknown> = { a: 1 };
  o.self = o;
  return o;
};
const cyclicArray = () => {
  const a: unknown[] = [1];
  a.push(a);
  return a;
};

const notJson: [string, unknown, RegExp][] = [
  ["a Date", new Date(0), /input "v" is a Date: pass date\.toISOString\(\)/],
  ["a Map", new Map([["a", 1]]), /input "v" is a Map: pass Object\.fromEntries\(map\)/],
  ["a Set", new Set([1]), /input "v" is a Set: pass \[\.\.\.set\]/],
  ["a Buffer", Buffer.from("x"), /input "v" is binary data: pass buffer\.toString\("base64"\)/],
  ["a class instance", new Point(), /input "v" is an instance of Point: pass plain data/],
  ["NaN inside a list", { n: [Number.NaN] }, /input "v\.n\[0\]" is NaN, which is not a finite number/],
  ["Infinity", Number.POSITIVE_INFINITY, /input "v" is Infinity, which is not a finite number/],
  ["-Infinity", Number.NEGATIVE_INFINITY, /input "v" is -Infinity, which is not a finite number/],
  ["a bigint", 10n, /input "v" is a bigint: pass it as a string or a number/],
  ["a function", () => 1, /input "v" is a function/],
  ["a symbol", Symbol("s"), /input "v" is a symbol/],
  ["undefined inside a list", [1, undefined], /input "v\[1\]" is undefined inside a list: remove it or use null/],
];
const wrongTypes: [string, unknown, RegExp][] = [
  ["s", 1, /input "s": expected a string, got a number \(1\)/],
  ["s", true, /input "s": expected a string, got a boolean \(true\)/],
  ["s", { a: 1 }, /input "s": expected a string, got an object/],
  ["n", "1", /input "n": expected a number, got a string \("1"\)/],
  ["n", [1], /input "n": expected a number, got an array/],
  ["b", "yes", /input "b": expected a boolean, got a string \("yes"\)/],
  ["b", 0, /input "b": expected a boolean, got a number \(0\)/],
  ["o", [1], /input "o": expected an object, got an array/],
  ["o", "x", /input "o": expected an object, got a string/],
  ["a", { x: 1 }, /input "a": expected an array, got an object/],
  ["a", "x", /input "a": expected an array, got a string/],
  ["e", "medium", /input "e": must be one of "small", "large" \(got "medium"\)/],
  ["e", 3, /input "e": expected a string, got a number \(3\)/],
];
const thrown: [string, unknown, RegExp][] = [
  ["an Error", new Error("no region for you"), /The program "bad" failed while declaring its resources: no region for you/],
  ["a string", "just a string", /The program "bad" failed while declaring its resources: just a string/],
  ["null", null, /failed while declaring its resources: the program threw null instead of an Error, so there is no message to show/],
  ["undefined", undefined, /failed while declaring its resources: the program threw undefined instead of an Error/],
  ["a plain object", { code: "E42", detail: "bad thing" }, /failed while declaring its resources: the program threw a plain object instead of an Error: \{"code":"E42","detail":"bad thing"\}/],
  ["a number", 42, /failed while declaring its resources: the program threw the number 42 instead of an Error/],
];
const stackOutputs: [string, unknown, RegExp][] = [
  ["NaN", Number.NaN, /stack output "out" is NaN, which is not a finite number: pass a finite number, or null: stack outputs are stored as JSON/],
  ["Infinity", Number.POSITIVE_INFINITY, /stack output "out" is Infinity, which is not a finite number/],
  ["a bigint", 10n, /stack output "out" is a bigint: pass it as a string or a number/],
  ["a function", () => 1, /stack output "out" is a function: pass the value it computes: stack outputs are stored as JSON/],
  ["a Date", new Date(0), /stack output "out" is a Date: pass date\.toISOString\(\)/],
  ["a Map", new Map(), /stack output "out" is a Map/],
];
const badOptions: [string, Record<string, unknown>, RegExp][] = [
  ["protect as text", { protect: "yes" }, /protect must be true or false \(got "yes"\)/],
  ["protect as a number", { protect: 1 }, /protect must be true or false \(got 1\)/],
  ["retainOnDelete as text", { retainOnDelete: "no" }, /retainOnDelete must be true or false \(got "no"\)/],
  ["allowDataLoss as text", { allowDataLoss: "yes" }, /allowDataLoss must be true or false \(got "yes"\)/],
  ["ignoreChanges as one string", { ignoreChanges: "v" }, /ignoreChanges must be a list of input attribute names/],
  ["dependsOn a string", { dependsOn: ["b"] }, /dependsOn of "a" \(bad:in:Box\) must list resources, waits or outputs of them; got b/],
  ["dependsOn a number", { dependsOn: [42] }, /dependsOn of "a" \(bad:in:Box\) must list resources, waits or outputs of them; got 42/],
  ["dependsOn null", { dependsOn: [null] }, /dependsOn of "a" \(bad:in:Box\) must list resources, waits or outputs of them; got null/],
  ["customTimeouts that are not durations", { customTimeouts: { create: "soon" } }, /customTimeouts\.create of Resource "a" \(bad:in:Box\): invalid duration "soon"/],
  ["a zero timeout", { customTimeouts: { update: "0s" } }, /customTimeouts\.update of Resource "a" \(bad:in:Box\).*must be longer than zero \(got "0s"\)/],
  ["a negative timeout", { customTimeouts: { delete: "-5m" } }, /customTimeouts\.delete of Resource "a" \(bad:in:Box\)/],
  ["a provider of another package", { provider: OtherPkg }, /was given the other provider "p", which cannot manage bad resources/],
];

const badReturns: [string, unknown, RegExp][] = [
  ["a number", 42, /returned the number 42 as its stack outputs/],
  ["a string", "out", /returned a string \("out"\) as its stack outputs/],
  ["a list", [1, 2], /returned a list \(\[1,2\]\) as its stack outputs/],
  ["null", null, /returned null as its stack outputs/],
  ["true", true, /returned the boolean true as its stack outputs/],
  ["a Map", new Map([["a", 1]]), /returned an instance of Map as its stack outputs/],
];

export const programCases: Case[] = [
  // What a program returns: its stack outputs, as an object (or nothing).
  ...badReturns.map(([what, v, message]) =>
    up(`a program that returns ${what} as its outputs`, () => { new Box("a", {}); return v as never; }, new RegExp(`The program's body ${message.source}\\.(\\n  --> \\S+)?\\nReturn an object of named outputs`)),
  ),
  // Names.
  preview("two resources with one type and name", () => { new Box("a", {}); new Box("a", {}); }, /Duplicate resource URN urn:cairn:dev::bad::bad:in:Box::a: resource "a" \(bad:in:Box\) and resource "a" \(bad:in:Box\).*\n  --> tests\/bad-inputs\/program-cases\.ts:112:\d+\nThe first is declared at tests\/bad-inputs\/program-cases\.ts:112:\d+\./),
  preview('a name with "::"', () => void new Box("a::b", {}), /The name "a::b" of a bad:in:Box resource cannot contain "::"/),
  preview("a name with a newline", () => void new Box("a\nb", {}), /The name "a\\nb" of a bad:in:Box resource cannot contain "::" or control characters/),
  preview("an empty name", () => void new Box("", {}), /A bad:in:Box resource needs a non-empty name \(got ""\)/),
  preview("a name that is not a string", () => void new Box(42 as never, {}), /A bad:in:Box resource needs a non-empty name \(got 42\)/),
  preview("options that are not an object", () => void new Box("a", {}, null as never), /Resource "a" \(bad:in:Box\): options must be an object \(got null\)/),
  // Options.
  ...badOptions.map(([what, opts, message]) => preview(what, () => void new Box("a", { v: 1 }, opts as never), message)),
  // Inputs that state cannot hold.
  ...notJson.map(([what, v, message]) => up(`${what} as an input`, () => void new Box("a", { v }), message)),
  up("a cyclic object as an input", () => void new Box("a", { v: cyclicObject() }), /Resource "a" \(bad:in:Box\): input "v\.self" refers back to "v" \(a cyclic object\)/),
  up("a cyclic list as an input", () => void new Box("a", { v: cyclicArray() }), /Resource "a" \(bad:in:Box\): input "v\[1\]" refers back to "v" \(a cyclic object\)/),
  // Inputs of the wrong type for the type's schema.
  ...wrongTypes.map(([attr, v, message]) => up(`input "${attr}" given ${JSON.stringify(v)}`, () => void new typed.Type("t", { [attr]: v }), new RegExp(`"t" \\(bad:in:Typed\\), ${message.source}`))),
  // Outputs used where values are needed.
  preview("an output used as a string", () => void new Box("a", { v: `${new Box("b", {}).v}` }), /The Output b\.v was used as a string at tests\/bad-inputs\/program-cases\.ts:\d+:\d+;.*Write interpolate`…\$\{out\}…` or out\.apply/s),
  preview("an output passed to JSON.stringify", () => void new Box("a", { v: JSON.stringify({ x: new Box("b", {}).v }) }), /The Output b\.v was passed to JSON\.stringify at tests\/bad-inputs\/program-cases\.ts:\d+:\d+;.*out\.apply\(\(v\) => JSON\.stringify\(v\)\)/s),
  preview("an output added to a string", () => void new Box("a", { v: "x-" + (new Box("b", {}).v as unknown as string) }), /The Output b\.v was used as a string at tests\/bad-inputs\/program-cases\.ts:\d+:\d+;/),
  // Declarations inside apply().
  up("a resource inside apply() with the name of another", () => void new Box("a", { v: output(1).apply(() => new Box("a", {}).v) }), /Duplicate resource URN urn:cairn:dev::bad::bad:in:Box::a/),
  up("a resource inside an apply() nothing uses, with the name of another", () => { new Box("a", {}); output(1).apply(() => new Box("a", {}).id); }, /An apply\(\) callback whose result nothing uses failed while planning: Duplicate resource URN urn:cairn:dev::bad::bad:in:Box::a/),
  up("a resource inside apply() on an output made outside the program", () => void new Box("a", { v: early }), /Resource "inner" \(bad:in:Box\) was created inside an apply\(\) callback of an output made outside any program/),
  // apply() callbacks that throw: the message names what the callback fed and the value it was given.
  preview("an apply() that throws, feeding an input", () => { const a = new Box("a", { v: 1 }); new Box("b", { v: a.v.apply(() => { throw new Error("no such zone"); }) }); }, /Planning "b" \(bad:in:Box\) failed: no such zone \(thrown by the apply\(\) callback at tests\/bad-inputs\/program-cases\.ts:135:\d+ on a\.v\)/),
  preview("an apply() that throws, feeding a stack output", () => { const a = new Box("a", { v: 1 }); return { url: a.v.apply(() => { throw new Error("no such zone"); }) }; }, /stack output "url" could not be computed: no such zone \(thrown by the apply\(\) callback at tests\/bad-inputs\/program-cases\.ts:136:\d+ on a\.v\)/),
  up("an apply() on an id that throws once the object exists, feeding a stack output", () => { const a = new Box("a", { v: 1 }); return { url: a.id.apply(() => { throw new Error("late zone"); }) }; }, /stack output "url" could not be computed: late zone \(thrown by the apply\(\) callback at tests\/bad-inputs\/program-cases\.ts:137:\d+ on a\.id\)/, { setup: true }),
  // Stack outputs that refer back to themselves.
  up("a stack output that refers back to itself", () => { new Box("a", {}); return { out: cyclicObject() }; }, /stack output "out\.self" refers back to "out" \(a cyclic object\)/),
  up("a stack output list that holds itself", () => { new Box("a", {}); return { out: cyclicArray() }; }, /stack output "out\[1\]" refers back to "out" \(a cyclic object\)/),
  up("a stack output whose apply() returns a cyclic object", () => { const a = new Box("a", {}); return { out: a.id.apply(() => cyclicObject()) }; }, /stack output "out" holds a value that refers back to itself \(a cyclic object/, { setup: true }),
  // Programs that throw.
  ...thrown.map(([what, e, message]) => preview(`a program that throws ${what}`, () => { throw e; }, message)),
  preview("an async program that rejects", async () => { await Promise.resolve(); throw new Error("async boom"); }, /failed while declaring its resources: async boom/),
  // Stack outputs state cannot hold.
  ...stackOutputs.map(([what, v, message]) => up(`a stack output that is ${what}`, () => { new Box("a", {}); return { out: v }; }, message)),
  // Configuration.
  preview("a required config value that is not set", ({ config }) => void new Box("a", { v: config.require("region") }), /Missing required configuration "region" for stack "dev": set it with `npx tsx infra\.ts config set region <value> --stack dev`/),
  preview("a required number that is not set", ({ config }) => void new Box("a", { v: config.requireNumber("replicas") }), /Missing required configuration "replicas" for stack "dev"/),
  preview("a required secret that is not set", ({ config }) => void new Box("a", { v: config.requireSecret("token") }), /Missing required configuration "token" for stack "dev": set it with `npx tsx infra\.ts config set token <value> --secret --stack dev`/),
  preview("three missing config values, each said once", ({ config }) => void new Box("a", { v: [config.require("x1"), config.require("x2"), config.require("x3")] }), /The program "bad" has 3 problem\(s\):\n.*"x1".*\n.*"x2".*\n.*"x3"/),
  preview("a number that is not a number", ({ config }) => void new Box("a", { v: config.getNumber("replicas") }), /Configuration "replicas" must be a number, but is "many"/, { before: async (dir) => (await import("./run-in.js")).runCliIn(dir, ["config", "set", "replicas", "many"]) }),
  preview("a boolean that is not one", ({ config }) => void new Box("a", { v: config.getBoolean("debug") }), /Configuration "debug" must be true or false, but is "maybe"/, { before: async (dir) => (await import("./run-in.js")).runCliIn(dir, ["config", "set", "debug", "maybe"]) }),
  preview("a secret read with config.get", ({ config }) => void new Box("a", { v: config.get("token") }), /Configuration "token" is a secret: read it with config\.getSecret\("token"\) or config\.requireSecret\("token"\)/, { before: async (dir) => (await import("./run-in.js")).runCliIn(dir, ["config", "set", "token", "s3cret", "--secret"]) }),
  // Waits.
  preview("a wait that would poll without pause", () => void wait(new Box("a", {}), { until: (b) => b.v.eq(1), interval: "0s" }), /interval of wait\(a\) must be longer than zero/),
  preview("a wait timeout that is not a duration", () => void wait(new Box("a", {}), { until: (b) => b.v.eq(1), timeout: "forever" }), /timeout of wait\(a\): invalid duration "forever"/),
  preview("a wait on a component", () => void wait(new ComponentResource("bad:in:Group", "g") as never, { until: () => undefined as never }), /wait\(\) cannot wait on the component "g"/),
  preview("two waits with one identity", () => { const a = new Box("a", {}); wait(a, { until: (b) => b.v.eq(1) }); wait(a, { until: (b) => b.v.eq(1) }); }, /Two waits have the identity .*\n  --> tests\/bad-inputs\/program-cases\.ts:159:\d+\nThe first is declared at tests\/bad-inputs\/program-cases\.ts:159:\d+\..*; give one of them a different `name`/),
];

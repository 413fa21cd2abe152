import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { argv, lit, type Case } from "./case.js";
import { box } from "./cloud.js";
import { memoryType } from "../helpers.js";

// Bad inputs generated from the rules each input follows: every parameter of a backend URL mistyped, every
// field of a state record given the wrong kind of value, journal lines broken each way, every typed input
// given each wrong type, and so on. Each says what it must get, as the hand-written cases do.

const stackDir = (dir: string) => join(dir, ".cairn", "stacks", "dev");
const snapshot = (dir: string) => join(stackDir(dir), "state.json");
const journal = (dir: string) => join(stackDir(dir), "journal.ndjson");

/** Two typos of a word: its second letter dropped, and its second and third letters swapped. */
function typos(word: string): string[] {
  const dropped = word.slice(0, 1) + word.slice(2);
  const swapped = word.slice(0, 1) + word[2] + word[1] + word.slice(3);
  return [...new Set([dropped, swapped])].filter((t) => t !== word);
}

const preview = (...extra: string[]) => argv("preview", ...extra);

// Backend URLs.
const S3_PARAMS = ["region", "endpoint", "forcePathStyle", "lease", "retry"];
const PG_PARAMS = ["schema", "retry", "sslmode", "application_name", "connect_timeout"];
const s3Typos: Case[] = S3_PARAMS.flatMap((p) =>
  typos(p).map((t): Case => ({
    what: `an S3 URL with "${p}" mistyped as "${t}"`,
    area: "backend URLs",
    argv: preview("--backend", `s3://acme/state?${t}=1`),
    code: 1,
    message: new RegExp(`unknown parameter "${t}" in S3 URL s3://acme/state\\?${t}=1 \\(did you mean "${p}"\\?\\)`),
  })),
);
const pgTypos: Case[] = PG_PARAMS.flatMap((p) =>
  typos(p).map((t): Case => ({
    what: `a PostgreSQL URL with "${p}" mistyped as "${t}"`,
    area: "backend URLs",
    argv: preview("--backend", `postgres://ci:secretpw@127.0.0.1:5432/infra?${t}=x`),
    code: 1,
    message: new RegExp(`unknown parameter "${t}" in the PostgreSQL URL postgres://ci:\\*\\*\\*@127\\.0\\.0\\.1:5432/infra\\?${t}=x \\(did you mean "${p}"\\?\\)`),
  })),
);
const badNumbers: Case[] = [
  ...["0", "-5", "abc", "0.5", ""].map((v): Case => ({ what: `an S3 lease of ${JSON.stringify(v)}`, area: "backend URLs", argv: preview("--backend", `s3://acme/p?lease=${v}`), code: 1, message: new RegExp(`invalid lease "${lit(v)}" in S3 URL`) })),
  ...["-1", "soon", "1e999", " "].map((v): Case => ({ what: `an S3 retry of ${JSON.stringify(v)}`, area: "backend URLs", argv: preview("--backend", `s3://acme/p?retry=${encodeURIComponent(v)}`), code: 1, message: new RegExp(`invalid retry "${lit(v)}" in S3 URL`) })),
  ...["-1", "later", "NaN"].map((v): Case => ({ what: `a PostgreSQL retry of ${JSON.stringify(v)}`, area: "backend URLs", argv: preview("--backend", `postgres://u@127.0.0.1/db?retry=${v}`), code: 1, message: new RegExp(`invalid retry "${lit(v)}" in the PostgreSQL URL`) })),
  ...["has-dash", "1st", "a.b", "x".repeat(64)].map((v): Case => ({ what: `a PostgreSQL schema ${JSON.stringify(v.length > 20 ? `${v.slice(0, 5)}… (${v.length})` : v)}`, area: "backend URLs", argv: preview("--backend", `postgres://u@127.0.0.1/db?schema=${v}`), code: 1, message: new RegExp(`invalid schema "${lit(v)}" in the PostgreSQL URL: use letters, digits and "_"`) })),
];
const badFileUrls: Case[] = [
  ["file://~", /starts its path with "~"/],
  ["file://~someone/state", /starts its path with "~"/],
  ["file://%", /has a broken percent-encoding/],
  ["file://state%2", /has a broken percent-encoding/],
  ["file:///tmp/%ZZ/x", /has a broken percent-encoding/],
].map(([url, message]) => ({ what: `a file URL ${url as string}`, area: "backend URLs", argv: preview("--backend", url as string), code: 1, message: message as RegExp }));
const unknownSchemes: Case[] = ["gs://bucket/p", "azblob://acct/c", "redis://127.0.0.1:6379", "sqlite:///state.db", "mongodb://127.0.0.1/db", "https://example.invalid/state", "s3-bucket/prefix", ".cairn"].map((url) => ({
  what: `a backend URL of an unknown kind: ${url}`,
  area: "backend URLs",
  argv: preview("--backend", url),
  code: 1,
  message: new RegExp(`unknown state backend "${lit(url)}": use file://<dir>`),
}));
const badEndpoints: Case[] = ["notaurl", "127.0.0.1:9000", "ftp://files.example", "http://", "//x"].map((e) => ({
  what: `an S3 endpoint ${JSON.stringify(e)}`,
  area: "backend URLs",
  argv: preview("--backend", `s3://acme/p?endpoint=${encodeURIComponent(e)}`),
  code: 1,
  message: new RegExp(`invalid endpoint "${lit(e)}" in S3 URL .*: give the S3-compatible server as an http\\(s\\) URL`),
}));

// CLI flags.
const badStacks: Case[] = ["a/b", "..", ".hidden", "has space", "x".repeat(101), "a:b", "naïve", "-"].filter((s) => s !== "-").map((s) => ({
  what: `a --stack named ${JSON.stringify(s.length > 20 ? `${s.slice(0, 5)}… (${s.length})` : s)}`,
  area: "CLI flags",
  argv: preview("--stack", s),
  code: 1,
  message: new RegExp(`Invalid stack name "${lit(s)}" \\(from --stack\\)\\.\\nA stack name may use 1-100 letters, digits`),
}));
const COMMANDS = [["preview"], ["up"], ["destroy"], ["refresh"], ["outputs"], ["state", "list"], ["config", "list"], ["stack", "ls"], ["unlock"]];
const bogusOptions: Case[] = COMMANDS.map((cmd) => ({
  what: `an option no command takes, given to ${cmd.join(" ")}: --dry-run`,
  area: "CLI flags",
  argv: argv(...cmd, "--dry-run"),
  code: 2,
  message: /unknown option '--dry-run'/,
}));

// Config read by the program.
const badConfigNumbers: Case[] = ["many", "1,5", "12abc", "NaN", "Infinity", " "].map((v) => ({
  what: `config replicas ${JSON.stringify(v)} read as a number`,
  area: "config",
  program: ({ config }) => void new box.Type("a", { v: config.getNumber("replicas") }),
  argv: preview(),
  code: 1,
  before: async (dir) => (await import("./run-in.js")).runCliIn(dir, ["config", "set", "replicas", v]),
  message: new RegExp(`Configuration "replicas" must be a number, but is "${lit(v)}"`),
}));
const badConfigBooleans: Case[] = ["yes", "1", "on", "TRUE", "False"].map((v) => ({
  what: `config debug ${JSON.stringify(v)} read as a boolean`,
  area: "config",
  program: ({ config }) => void new box.Type("a", { v: config.getBoolean("debug") }),
  argv: preview(),
  code: 1,
  before: async (dir) => (await import("./run-in.js")).runCliIn(dir, ["config", "set", "debug", v]),
  message: new RegExp(`Configuration "debug" must be true or false, but is "${lit(v)}"`),
}));

// Programs: each typed input given each kind of value it does not take.
const typed = memoryType<Record<string, unknown>>("bad:gen:Typed", {
  inputs: { s: { type: "string" }, n: { type: "number" }, b: { type: "boolean" }, o: { type: "object" }, a: { type: "array" } },
  outputs: {},
});
const SAMPLES: Record<string, [unknown, string]> = { string: ["x", "a string"], number: [2, "a number"], boolean: [false, "a boolean"], object: [{ k: 1 }, "an object"], array: [[1], "an array"] };
const ATTRS: Record<string, string> = { s: "string", n: "number", b: "boolean", o: "object", a: "array" };
const wrongKinds: Case[] = Object.entries(ATTRS).flatMap(([attr, kind]) =>
  Object.entries(SAMPLES)
    .filter(([k]) => k !== kind)
    .map(([k, [value, said]]): Case => ({
      what: `typed input "${attr}" (${kind}) given ${said}`,
      area: "programs",
      program: () => void new typed.Type("t", { [attr]: value }),
      argv: argv("up", "--yes"),
      code: 1,
      message: new RegExp(`"t" \\(bad:gen:Typed\\), input "${attr}": expected ${kind === "array" || kind === "object" ? "an" : "a"} ${kind}, got ${lit(said)}`),
    })),
);

// State records: each field given a kind of value it cannot have.
const editRecord = (edit: (r: Record<string, unknown>, s: Record<string, any>) => void) => async (dir: string) => {
  const s = JSON.parse(await readFile(snapshot(dir), "utf8")) as Record<string, any>;
  delete s.digest;
  edit(s.resources[Object.keys(s.resources)[0]!], s);
  await writeFile(snapshot(dir), JSON.stringify(s));
};
const recordFields: [string, unknown][] = [
  ["urn", 42], ["type", null], ["type", 7], ["id", null], ["id", 42], ["id", ["x"]], ["inputs", null], ["inputs", [1]], ["outputs", "x"], ["outputs", null], ["deps", [42]], ["deps", null],
];
const badRecords: Case[] = recordFields.map(([field, value]) => ({
  what: `state.json with a record whose ${field} is ${JSON.stringify(value)}`,
  area: "state files",
  argv: preview(),
  code: 1,
  setup: true,
  before: editRecord((r) => void (r[field] = value)),
  message: new RegExp(`state\\.json is not a valid Cairn state file: resources\\..*${field}.*state recover`, "s"),
}));
const topFields: [string, unknown, RegExp][] = [
  ["version", "1", /is not a valid Cairn state file: version/],
  ["version", 0, /is not a valid Cairn state file: version/],
  ["serial", "3", /is not a valid Cairn state file: serial/],
  ["serial", 1.5, /is not a valid Cairn state file: serial/],
  ["outputs", [], /is not a valid Cairn state file: outputs/],
  ["outputs", null, /is not a valid Cairn state file: outputs/],
  ["project", 42, /is not a valid Cairn state file: project/],
  ["stack", null, /is not a valid Cairn state file: stack/],
];
const badTops: Case[] = topFields.map(([field, value, message]) => ({
  what: `state.json whose ${field} is ${JSON.stringify(value)}`,
  area: "state files",
  argv: preview(),
  code: 1,
  setup: true,
  before: editRecord((_r, s) => void (s[field] = value)),
  message: new RegExp(`state\\.json ${message.source}`),
}));

// Journals: a line broken each way, in the middle (a torn last line is a crash's, and is dropped).
const brokenLines: [string, string][] = [
  ["text that is not JSON", "this is not json"],
  ["a record of an unknown kind", '{"t":"zzz"}'],
  ["a begin with nothing else", '{"t":"begin"}'],
  ["a begin of an unknown operation", '{"t":"begin","op":1,"kind":"explode","urn":"urn:cairn:dev::bad::bad:in:Box::a","type":"bad:in:Box","since":"x"}'],
  ["a begin with a negative op", '{"t":"begin","op":-1,"kind":"create","urn":"urn:cairn:dev::bad::bad:in:Box::a","type":"bad:in:Box","since":"x"}'],
  ["an end whose op is text", '{"t":"end","op":"x"}'],
  ["a JSON list", "[]"],
  ["JSON null", "null"],
  ["a mutate whose changes are text", '{"t":"mutate","m":"x"}'],
];
const badJournals: Case[] = brokenLines.map(([what, line]) => ({
  what: `journal.ndjson with ${what} in the middle`,
  area: "journals",
  argv: preview(),
  code: 1,
  setup: true,
  before: async (dir) => {
    const serial = (JSON.parse(await readFile(snapshot(dir), "utf8")) as { serial: number }).serial;
    await writeFile(journal(dir), `{"t":"head","v":2,"serial":${serial}}\n${line}\n{"t":"mutate","m":[]}\n`);
  },
  message: /journal\.ndjson line 2 is damaged/,
}));
const badHeads: Case[] = [
  ["a head whose serial is text", '{"t":"head","v":2,"serial":"one"}'],
  ["no head (a begin first)", '{"t":"mutate","m":[]}'],
  ["a head of version 0", '{"t":"head","v":0,"serial":1}'],
].map(([what, head]) => ({
  what: `journal.ndjson with ${what}`,
  area: "journals",
  argv: preview(),
  code: 1,
  setup: true,
  before: async (dir) => writeFile(journal(dir), `${head}\n{"t":"mutate","m":[]}\n`),
  message: /journal\.ndjson (line 1 is damaged|.*head)/,
}));

// Saved plans edited after `preview --out`.
const planEdits: [string, (t: string) => string, RegExp][] = [
  ["with its format as text", (t) => t.replace(/"cairnPlan": \d+/, '"cairnPlan": "1"'), /plan\.json is a plan of format 1; this Cairn applies format 1|plan\.json is not a valid Cairn plan file|is a plan of format/],
  ["with its plan removed", (t) => JSON.stringify({ ...JSON.parse(t), plan: undefined }), /plan\.json is not a Cairn plan file/],
  ["with a URN changed", (t) => t.replace(/urn:cairn:dev::bad::bad:in:Box::a/g, "urn:cairn:dev::bad::bad:in:Box::z"), /plan\.json was changed after `preview --out` wrote it/],
  ["with its digest altered", (t) => t.replace(/"digest": "sha256-./, '"digest": "sha256-#'), /plan\.json was changed after `preview --out` wrote it/],
  ["cut short", (t) => t.slice(0, Math.floor(t.length / 2)), /plan\.json is not valid JSON/],
  ["that is empty", () => "", /plan\.json is not valid JSON/],
];
const badPlans: Case[] = planEdits.map(([how, edit, message]) => ({
  what: `a saved plan ${how} (generated)`,
  area: "saved plans",
  argv: (dir) => ["up", "--plan", join(dir, "plan.json"), "--yes"],
  code: 1,
  before: async (dir) => {
    await (await import("./run-in.js")).runCliIn(dir, ["preview", "--out", join(dir, "plan.json")]);
    const file = join(dir, "plan.json");
    await writeFile(file, edit(await readFile(file, "utf8")));
  },
  message,
}));

/** Every generated case. */
export const generatedCases: Case[] = [
  ...s3Typos, ...pgTypos, ...badNumbers, ...badFileUrls, ...unknownSchemes, ...badEndpoints,
  ...badStacks, ...bogusOptions, ...badConfigNumbers, ...badConfigBooleans, ...wrongKinds,
  ...badRecords, ...badTops, ...badJournals, ...badHeads, ...badPlans,
];

// Probes: more inputs users try, each with what it must get.
const probes: Case[] = [
  { what: "state.json holding a resource of another stack", area: "state files", argv: preview(), code: 1, setup: true,
    before: editRecord((r, s) => {
      const moved = String(r.urn).replace("urn:cairn:dev::", "urn:cairn:prod::");
      s.resources = { [moved]: { ...r, urn: moved } };
    }),
    message: /state\.json is not a valid Cairn state file: it holds urn:cairn:prod::bad::bad:in:Box::a, a resource of stack "prod" of project "bad", not of stack "dev" of "bad"/ },
  { what: "--parallel given a fraction as an exponent", area: "CLI flags", argv: preview("--parallel", "1e-1"), code: 2, message: /--parallel.*It must be a whole number ≥ 1/ },
  { what: "--state-dir given as empty text (an unset variable)", area: "CLI flags", argv: preview("--state-dir", ""), code: 2, message: /option '--state-dir <dir>' argument '' is invalid\. It is empty \(an unset variable\?\)/ },
  { what: "--backend given as empty text (an unset variable)", area: "backend URLs", argv: preview("--backend", " "), code: 2, message: /option '--backend <url>' argument ' ' is invalid\. It is empty/ },
  { what: "--target given a name instead of a URN", area: "CLI flags", argv: preview("--target", "a"), code: 1, message: /--target a/ },
  { what: "state show given a URN of another stack", area: "CLI flags", argv: argv("state", "show", "urn:cairn:prod::bad::bad:in:Box::a"), code: 1, setup: true, message: /urn:cairn:prod::bad::bad:in:Box::a/ },
  { what: "state import of a type no provider knows", area: "CLI flags", argv: argv("state", "import", "nope:x:Thing", "n", "id-1", "--yes"), code: 1, setup: true, message: /nope:x:Thing/ },
  { what: "stack restore of a backup of another project", area: "CLI flags", argv: (dir) => ["stack", "restore", join(dir, "b.json"), "--yes"], code: 1,
    before: (dir) => writeFile(join(dir, "b.json"), JSON.stringify({ format: "cairn-stack-backup/1", project: "other", stack: "dev", state: {} })), message: /b\.json/ },
  { what: "a program that returns a promise of a number as its outputs", area: "programs", argv: argv("up", "--yes"), code: 1, program: async () => { new box.Type("a", {}); return 7 as never; }, message: /returned the number 7 as its stack outputs/ },
  { what: "a program that returns an output as its outputs", area: "programs", argv: argv("up", "--yes"), code: 1, program: () => new box.Type("a", { v: 1 }).v as never, message: /returned an Output \(one value known only when the engine runs\), not an object of named outputs, as its stack outputs/ },
];
generatedCases.push(...probes);

import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { argv, type Case } from "./case.js";
import { secret } from "../../src/program/output.js";
import { box } from "./cloud.js";

/** A program with a secret input: its saved plan holds an encrypted value. */
const secretBox = () => void new box.Type("a", { v: secret("pw") });

// The command line: usage mistakes (exit 2) and requests that cannot be met (exit 1).

type Args = string[] | ((dir: string) => string[]);
const argsOf = (a: Args) => (typeof a === "function" ? a : argv(...a));
const usage = (what: string, args: Args, message: RegExp, extra: Partial<Case> = {}): Case => ({ what, argv: argsOf(args), code: 2, message, ...extra });
const fails = (what: string, args: Args, message: RegExp, extra: Partial<Case> = {}): Case => ({ what, argv: argsOf(args), code: 1, message, ...extra });

const typos: [string, string][] = [["upp", "up"], ["prevew", "preview"], ["destory", "destroy"], ["refesh", "refresh"], ["outptus", "outputs"], ["stat", "state"], ["unlok", "unlock"], ["confg", "config"], ["stak", "stack"]];
const unknownOptions: [string[], string][] = [
  [["preview", "--yes"], "--yes"], [["up", "--out", "x"], "--out"], [["destroy", "--plan", "x"], "--plan"], [["refresh", "--diff"], "--diff"],
  [["outputs", "--yes"], "--yes"], [["state", "list", "--yes"], "--yes"], [["config", "set", "k", "v", "--json"], "--json"], [["unlock", "--yes"], "--yes"],
  [["stack", "ls", "--force"], "--force"], [["up", "--yess"], "--yess"], [["config", "get", "k", "--secret"], "--secret"],
];
const missingArgs: [string[], string][] = [
  [["state", "show"], "resource"], [["state", "rm"], "resources"], [["state", "mv", "a"], "to"], [["state", "import", "t", "n"], "id"],
  [["state", "unprotect"], "resource"], [["state", "rollback"], "version"], [["config", "set", "region"], "value"], [["config", "get"], "key"],
  [["config", "rm"], "key"], [["stack", "rm"], "name"], [["stack", "restore"], "file"],
];
const badParallel = ["0", "-1", "1.5", "many", ""];
const badDeadline = ["0s", "-1m", "soon", "5 parsecs"];
const badVersions = ["-1", "1.5", "latest"];
const planAndPlanning = [["--target", "urn:x"], ["--replace", "urn:x"], ["--refresh"], ["--refresh-only"]];
const forgetful: [string[], Record<string, string>, string][] = [
  [["up", "--yes", "--backend", "memory://"], {}, "--backend memory://"],
  [["preview", "--backend", "memory://named"], {}, "--backend memory://named"],
  [["up", "--yes"], { CAIRN_BACKEND: "memory://x" }, "CAIRN_BACKEND memory://x"],
  [["state", "migrate", "--to", "memory://"], {}, "--to memory://"],
];
const unknownStack: string[][] = [
  ["destroy", "--yes"], ["refresh", "--yes"], ["outputs"], ["state", "list"], ["state", "show", "a"], ["state", "rm", "a", "--yes"],
  ["state", "mv", "a", "b", "--yes"], ["state", "unprotect", "a", "--yes"], ["config", "get", "k"], ["config", "rm", "k"], ["config", "list"], ["unlock"],
];
const badUrls: [string, RegExp][] = [
  ["ftp://host/state", /unknown state backend "ftp:\/\/host\/state": use file:\/\/<dir>/],
  ["mysql://u:pw@db/x", /unknown state backend "mysql:\/\/u:\*\*\*@db\/x"/],
  ["http://example.invalid/state", /unknown state backend "http:\/\/example\.invalid\/state"/],
  ["s3:/bucket/prefix", /unknown state backend "s3:\/bucket\/prefix"/],
  ["file://", /the backend URL file:\/\/ names no directory/],
  ["s3://acme/p?regoin=eu-west-1", /unknown parameter "regoin" in S3 URL .*: use region, endpoint, forcePathStyle, lease or retry/],
  ["s3://acme/p?lease=0", /invalid lease "0" in S3 URL/],
  ["s3://acme/p?retry=soon", /invalid retry "soon" in S3 URL/],
  ["postgres://u@127.0.0.1/db?schema=bad-name", /invalid schema "bad-name" in the PostgreSQL URL/],
  ["postgres://u@127.0.0.1/db?retry=x", /invalid retry "x" in the PostgreSQL URL/],
  ["postgres://u:pw@127.0.0.1/db?shema=prod", /unknown parameter "shema" in the PostgreSQL URL postgres:\/\/u:\*\*\*@127\.0\.0\.1\/db\?shema=prod \(did you mean "schema"\?\): use schema or retry, or a parameter of the pg driver/],
  ["postgres://u@127.0.0.1/db?sslmod=require", /unknown parameter "sslmod" .*\(did you mean "sslmode"\?\)/],
  ["file://~/state", /the backend URL file:\/\/~\/state starts its path with "~", which is not expanded inside a URL.*--state-dir ~\/state/],
  ["file://%zz", /the backend URL file:\/\/%zz has a broken percent-encoding/],
  ["file:///tmp/%zz", /the backend URL file:\/\/\/tmp\/%zz has a broken percent-encoding/],
  ["s3://acme/p?endpoint=notaurl", /invalid endpoint "notaurl" in S3 URL s3:\/\/acme\/p\?endpoint=notaurl: give the S3-compatible server as an http\(s\) URL/],
  ["s3://acme/p?endpoint=ftp%3A%2F%2Fx", /invalid endpoint "ftp:\/\/x" in S3 URL/],
  ["s3://acme/p?forcePathStyle=yes", /invalid forcePathStyle "yes" in S3 URL .*: use forcePathStyle=true or false/],
  ["s3://acme/p?Region=eu-west-1", /unknown parameter "Region" in S3 URL .*\(did you mean "region"\?\)/],
];
const badKeys: [string, RegExp][] = [
  ["__proto__", /config key "__proto__" is reserved/], ["constructor", /config key "constructor" is reserved/], ["prototype", /config key "prototype" is reserved/],
  ["hasOwnProperty", /config key "hasOwnProperty" is reserved/], ["", /config key "" is empty/], ["a\u0001b", /config key "a\\u0001b" contains control characters/],
  ["k".repeat(201), /is longer than 200 characters/],
];

/** Writes the project's saved plan, then lets `edit` change its text. */
const planFile = (edit: (text: string) => string) => async (dir: string) => {
  const file = join(dir, "plan.json");
  await writeFile(file, edit(await readFile(file, "utf8")));
};

export const cliCases: Case[] = [
  ...typos.map(([typo, real]) => usage(`a mistyped command: ${typo}`, [typo], new RegExp(`unknown command '${typo}'.*${real}`, "s"))),
  ...unknownOptions.map(([args, opt]) => usage(`an option ${args[0]}${args[1]?.startsWith("-") ? "" : ` ${args[1]}`} does not take: ${opt}`, args, new RegExp(`unknown option '${opt}'`))),
  ...missingArgs.map(([args, name]) => usage(`${args.join(" ")} without its ${name}`, args, new RegExp(`missing required argument '${name}'`))),
  usage("state migrate without --to", ["state", "migrate"], /required option '--to <url>' not specified/),
  usage("an option without its value", ["up", "--plan"], /option '--plan <file>' argument missing/),
  ...badParallel.map((v) => usage(`--parallel ${JSON.stringify(v)}`, ["preview", "--parallel", v], /--parallel.*It must be a whole number ≥ 1/)),
  ...badDeadline.map((v) => usage(`--retry-deadline ${JSON.stringify(v)}`, ["preview", "--retry-deadline", v], /--retry-deadline <duration>' argument '.*' is invalid/)),
  ...badVersions.map((v) => usage(`a rollback version ${JSON.stringify(v)}`, ["state", "rollback", v], new RegExp(`a version is a whole number from \`state history\` \\(got "${v.replace(".", "\\.")}"\\)`))),
  ...planAndPlanning.map((o) => usage(`--plan with ${o[0]}`, ["up", "--plan", "p.json", ...o], /--plan applies a saved plan as it is: --target, --replace, --refresh and --refresh-only belong to the preview that made it/)),
  usage("up with changes, off a terminal, without --yes", ["up"], /up needs confirmation, and this is not an interactive terminal: pass --yes/),
  usage("destroy off a terminal without --yes", ["destroy"], /destroy needs confirmation.*pass --yes/, { setup: true }),
  usage("state rm off a terminal without --yes", ["state", "rm", "a"], /state rm changes the state and needs confirmation.*pass --yes/, { setup: true }),
  usage("state mv off a terminal without --yes", ["state", "mv", "a", "b"], /state mv changes the state and needs confirmation.*pass --yes/, { setup: true }),
  usage("state rollback off a terminal without --yes", ["state", "rollback", "1"], /state rollback changes the state and needs confirmation.*pass --yes/, { setup: true }),
  usage("stack rm off a terminal without --yes", ["stack", "rm", "dev", "--force"], /stack rm changes the state and needs confirmation.*pass --yes/, { setup: true }),
  usage("up --json without --yes", ["up", "--json"], /up needs confirmation, and --json output cannot ask: pass --yes/),
  ...forgetful.map(([args, env, where]) => usage(`a memory backend from the command line: ${where}`, args, new RegExp(`${where.replace(/[/.]/g, "\\$&")} keeps the state in this process's memory only`), { env })),
  ...unknownStack.map((args) => fails(`an unknown --stack for ${args.slice(0, 2).join(" ")}`, [...args, "--stack", "prdo"], /Stack "prdo" does not exist \(in .*\)\. Existing stacks: dev\. Check --stack/, { setup: true })),
  ...badUrls.map(([url, message]) => fails(`a backend URL ${url}`, ["preview", "--backend", url], message)),
  ...badUrls.slice(0, 3).map(([url, message]) => fails(`CAIRN_BACKEND=${url}`, ["preview"], message, { env: { CAIRN_BACKEND: url } })),
  fails("--state-dir pointing at a file", ["preview", "--state-dir", "/dev/null"], /cannot read \/dev\/null\/stacks \(ENOTDIR: a part of its path is a file, not a folder: check --state-dir/),
  fails("--state-dir on a special file system (/proc)", ["up", "--yes", "--state-dir", "/proc/self/cairn-state"], /\/proc\/self\/cairn-state.*a special file system such as \/proc\): use another --state-dir/),
  fails("a --target that names nothing", ["preview", "--target", "urn:cairn:dev::bad::bad:in:Box::nope"], /--target urn:cairn:dev::bad::bad:in:Box::nope: no resource with this URN/),
  fails("a --replace that names nothing", ["preview", "--replace", "urn:nope"], /--replace urn:nope: no resource with this URN in the program/),
  fails("a --target of destroy that names nothing", ["destroy", "--yes", "--target", "urn:nope"], /--target urn:nope: no resource with this URN in state/, { setup: true }),
  fails("a plan file that does not exist", (dir) => ["up", "--plan", join(dir, "missing.json"), "--yes"], /Cannot read the plan file .*missing\.json: .*Write one with `preview --out/),
  fails("a plan file that is not JSON", (dir) => ["up", "--plan", join(dir, "plan.json"), "--yes"], /plan\.json is not valid JSON \(.*\): it is not a plan written by `preview --out`/, { before: (dir) => writeFile(join(dir, "plan.json"), "{ nope") }),
  fails("a plan file that is not a plan", (dir) => ["up", "--plan", join(dir, "plan.json"), "--yes"], /plan\.json is not a Cairn plan file \(written by `preview --out`\)/, { before: (dir) => writeFile(join(dir, "plan.json"), "{}") }),
  fails("a plan file of another format", (dir) => ["up", "--plan", join(dir, "plan.json"), "--yes"], /plan\.json is a plan of format 99; this Cairn applies format 1/, { before: (dir) => writeFile(join(dir, "plan.json"), JSON.stringify({ cairnPlan: 99, plan: {} })) }),
  ...([
    ["edited by hand", (t: string) => t.replace('"v": 1', '"v": 7'), /plan\.json was changed after `preview --out` wrote it \(its digest does not match\)/],
    ["with its digest removed", (t: string) => JSON.stringify({ ...JSON.parse(t), digest: undefined }, null, 1), /plan\.json is not a valid Cairn plan file: digest/],
    ["with a step of an unknown kind", (t: string) => t.replace('"kind": "create"', '"kind": "explode"'), /plan\.json is not a valid Cairn plan file: plan\.steps\.0/],
    ["with its serial as text", (t: string) => t.replace(/"baseSerial": \d+/, '"baseSerial": "zero"'), /plan\.json is not a valid Cairn plan file: plan\.baseSerial/],
    ["with a step removed", (t: string) => JSON.stringify({ ...JSON.parse(t), plan: { ...JSON.parse(t).plan, steps: [] } }, null, 1), /plan\.json was changed after `preview --out` wrote it/],
  ] as const).map(([how, edit, message]) =>
    fails(`a saved plan ${how}`, (dir) => ["up", "--plan", join(dir, "plan.json"), "--yes"], message, {
      before: async (dir) => {
        const { runCliIn } = await import("./run-in.js");
        await runCliIn(dir, ["preview", "--out", join(dir, "plan.json")]);
        await planFile(edit)(dir);
      },
    }),
  ),
  ...([
    ["another", "not-the-passphrase", /The secrets in the plan .*plan\.json do not decrypt with this CAIRN_PASSPHRASE: the plan was saved under another one.*Nothing was applied/],
    ["no", "", /The plan .*plan\.json holds encrypted secrets: set CAIRN_PASSPHRASE to the passphrase `preview --out` ran with, to read it/],
  ] as const).map(([which, passphrase, message]) =>
    fails(`a saved plan with secrets, applied under ${which} passphrase`, (dir) => ["up", "--plan", join(dir, "plan.json"), "--yes"], message, {
      program: secretBox,
      env: { CAIRN_PASSPHRASE: passphrase },
      before: async (dir) => (await import("./run-in.js")).runCliIn(dir, ["preview", "--out", join(dir, "plan.json")], secretBox),
    }),
  ),
  fails("a saved plan of another stack", (dir) => ["up", "--plan", join(dir, "plan.json"), "--yes"], /This plan was made for stack "other" of project "bad", not stack "dev"/, {
    before: async (dir) => (await import("./run-in.js")).runCliIn(dir, ["preview", "--out", join(dir, "plan.json"), "--stack", "other"]),
  }),
  fails("a saved plan the state moved past", (dir) => ["up", "--plan", join(dir, "plan.json"), "--yes"], /The state of stack "dev" changed since this plan was made \(serial \d+ → \d+\); nothing was applied/, {
    before: async (dir) => {
      const { runCliIn } = await import("./run-in.js");
      await runCliIn(dir, ["preview", "--out", join(dir, "plan.json")]);
      await runCliIn(dir, ["config", "set", "unrelated", "x"]);
      await runCliIn(dir, ["up", "--yes"]);
    },
  }),
  ...badKeys.map(([key, message]) => fails(`a config key ${JSON.stringify(key.length > 20 ? `${key.slice(0, 5)}… (${key.length} characters)` : key)}`, ["config", "set", key, "x"], message)),
  fails("config get of a key that is not set", ["config", "get", "region"], /Configuration "region" is not set for stack "dev"\. Set it with `npx tsx infra.ts config set region <value> --stack dev`/, { setup: true }),
  fails("state show of a resource that is not in state", ["state", "show", "ghost"], /ghost/, { setup: true }),
  fails('state mv to a name with "::"', ["state", "mv", "a", "a::b", "--yes"], /The new name "a::b" of urn:cairn:dev::bad::bad:in:Box::a cannot contain "::" or control characters .*nothing was renamed/, { setup: true }),
  fails("state mv to a URN whose name has a newline", ["state", "mv", "a", "urn:cairn:dev::bad::bad:in:Box::a\nb", "--yes"], /The new name "a\\nb" .*cannot contain "::" or control characters/, { setup: true }),
  fails("state rm of a resource that is not in state", ["state", "rm", "ghost", "--yes"], /ghost/, { setup: true }),
  fails("stack restore of a file that does not exist", (dir) => ["stack", "restore", join(dir, "nope.json"), "--yes"], /Cannot read .*nope\.json: no such file\. `stack rm` prints the path of the backup it writes/),
  fails("stack restore of a file that is not JSON", (dir) => ["stack", "restore", join(dir, "x.json"), "--yes"], /x\.json is not JSON .*it is not a stack backup written by `stack rm`/, { before: (dir) => writeFile(join(dir, "x.json"), "nope") }),
  fails("stack restore of a file that is not a backup", (dir) => ["stack", "restore", join(dir, "x.json"), "--yes"], /x\.json is not a stack backup written by `stack rm` \(format cairn-stack-backup\/1\)/, { before: (dir) => writeFile(join(dir, "x.json"), '{"hello":"world"}') }),
  fails("stack rm of a stack with resources, without --force", ["stack", "rm", "dev", "--yes"], /Stack "dev" still has 1 resource\(s\); nothing was removed\. Run destroy first/, { setup: true }),
  fails("stack rm of a stack that does not exist", ["stack", "rm", "prdo", "--yes"], /Stack "prdo" does not exist in .*; nothing was removed/, { setup: true }),
];

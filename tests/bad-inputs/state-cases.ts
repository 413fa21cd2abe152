import fs from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { argv, type Case } from "./case.js";
import { box } from "./cloud.js";

// State, journal, config and secrets files as users have found them: damaged, edited by hand, replaced by a
// folder, unreadable. Each is refused naming the file and what to do, and left exactly as it was.

const stackDir = (dir: string) => join(dir, ".cairn", "stacks", "dev");
const snapshot = (dir: string) => join(stackDir(dir), "state.json");
const journal = (dir: string) => join(stackDir(dir), "journal.ndjson");

/** Rewrites the snapshot as JSON after `edit` (its digest dropped, so it is checked field by field). */
const editState = (edit: (s: Record<string, any>) => unknown) => async (dir: string) => {
  const s = JSON.parse(await readFile(snapshot(dir), "utf8")) as Record<string, any>;
  delete s.digest;
  const out = edit(s);
  await writeFile(snapshot(dir), JSON.stringify(out === undefined ? s : out));
};
const firstUrn = (s: Record<string, any>) => Object.keys(s.resources)[0]!;
const replaceState = (text: string) => async (dir: string) => writeFile(snapshot(dir), text);

const damaged = (what: string, before: (dir: string) => Promise<unknown>, problem: RegExp, command = ["preview"]): Case => ({
  what: `state.json ${what}`,
  argv: argv(...command),
  code: 1,
  setup: true,
  before: async (dir) => void (await before(dir)),
  message: new RegExp(`state\\.json ${problem.source}.*Nothing was changed, and the file was left as it is\\. Two ways out: \`npx tsx infra\\.ts state recover --stack dev\`.*--from-backup`, "s"),
});

const snapshotDamage: [string, (dir: string) => Promise<unknown>, RegExp][] = [
  ["that is empty", replaceState(""), /is empty/],
  ["cut short", async (dir) => writeFile(snapshot(dir), (await readFile(snapshot(dir), "utf8")).slice(0, 60)), /is not valid JSON/],
  ["that is not JSON", replaceState("{ this is not json"), /is not valid JSON/],
  ["that is a JSON list", replaceState("[]"), /is not a valid Cairn state file/],
  ["that is JSON null", replaceState("null"), /is not a valid Cairn state file/],
  ["without resources", editState((s) => void delete s.resources), /is not a valid Cairn state file: resources/],
  ["whose resources are a list", editState((s) => void (s.resources = [])), /is not a valid Cairn state file: resources/],
  ["with an empty object id", editState((s) => void (s.resources[firstUrn(s)].id = "")), /is not a valid Cairn state file: resources\..*\.id: an object id cannot be empty/],
  ["with inputs that are text", editState((s) => void (s.resources[firstUrn(s)].inputs = "oops")), /is not a valid Cairn state file: resources\..*\.inputs/],
  ["with deps that are not a list", editState((s) => void (s.resources[firstUrn(s)].deps = "none")), /is not a valid Cairn state file: resources\..*\.deps/],
  ["with a resource filed under another URN", editState((s) => void (s.resources["urn:cairn:dev::bad::bad:in:Box::zzz"] = s.resources[firstUrn(s)])), /is not a valid Cairn state file: .*resource is filed under "urn:cairn:dev::bad::bad:in:Box::zzz" but its urn is/],
  ["with a negative serial", editState((s) => void (s.serial = -3)), /is not a valid Cairn state file: serial/],
  ["with a type that is empty", editState((s) => void (s.resources[firstUrn(s)].type = "")), /is not a valid Cairn state file: resources\..*\.type/],
  ["with a dependency on a URN that exists nowhere", editState((s) => void (s.resources[firstUrn(s)].deps = ["urn:cairn:dev::bad::bad:in:Box::ghost"])), /is not a valid Cairn state file: resources\..*\.deps: names urn:cairn:dev::bad::bad:in:Box::ghost, which is no resource of this state/],
  ["with a type that disagrees with its URN (and the program)", editState((s) => void (s.resources[firstUrn(s)].type = "bad:in:Other")), /is not a valid Cairn state file: resources\..*\.type: the type "bad:in:Other" disagrees with the type in its URN \("bad:in:Box"\)/],
  ["behind its journal (replaced by an older copy)", editState((s) => void (s.serial = 0)), /has serial 0, but .*journal\.ndjson continues serial \d+: the snapshot was deleted or replaced by an older copy/],
];

export const stateCases: Case[] = [
  ...snapshotDamage.map(([what, before, problem]) => damaged(what, before, problem)),
  damaged("that is empty, seen by destroy", replaceState(""), /is empty/, ["destroy", "--yes"]),
  damaged("that is empty, seen by state list", replaceState(""), /is empty/, ["state", "list"]),
  damaged("that is empty, seen by outputs", replaceState(""), /is empty/, ["outputs"]),
  damaged("that is empty, seen by up", replaceState(""), /is empty/, ["up", "--yes"]),
  { what: "state.json deleted while its journal continues it", argv: argv("preview"), code: 1, setup: true, before: (dir) => rm(snapshot(dir)), message: /state\.json is missing, but .*journal\.ndjson continues serial \d+.*state recover/s },
  {
    what: "state.json from a newer Cairn",
    argv: argv("preview"),
    code: 1,
    before: async (dir) => {
      await mkdir(stackDir(dir), { recursive: true });
      await writeFile(snapshot(dir), JSON.stringify({ version: 99, project: "bad", stack: "dev", serial: 1, resources: {}, outputs: {} }));
    },
    message: /state\.json was written by a newer Cairn \(format v99, this build reads v1\): upgrade cairn/,
  },
  { what: "state.json of another project", argv: argv("preview"), code: 1, setup: true, before: editState((s) => void (s.project = "other")), message: /state\.json holds the state of project "other" stack "dev", but this program is project "bad" stack "dev"/ },
  { what: "state.json of another stack", argv: argv("preview"), code: 1, setup: true, before: editState((s) => void (s.stack = "prod")), message: /state\.json holds the state of project "bad" stack "prod", but this program is project "bad" stack "dev"/ },
  { what: "state.json that is a folder", argv: argv("preview"), code: 1, before: async (dir) => void (await mkdir(snapshot(dir), { recursive: true })), message: /cannot read .*state\.json \(EISDIR: it is a folder, not a file: move the folder aside\)\. Nothing was changed/ },
  { what: "journal.ndjson that is a folder", argv: argv("preview"), code: 1, before: async (dir) => void (await mkdir(journal(dir), { recursive: true })), message: /cannot read .*journal\.ndjson \(EISDIR: it is a folder, not a file/ },
  {
    what: "journal.ndjson damaged in the middle",
    argv: argv("preview"),
    code: 1,
    setup: true,
    before: async (dir) => {
      await writeFile(journal(dir), '{"t":"head","v":2,"serial":2}\n{ not json\n{"t":"mutate","m":[]}\n');
      await editState((s) => void (s.serial = 2))(dir);
    },
    message: /journal\.ndjson line 2 is damaged \(not valid JSON\); the file was left untouched/,
  },
  {
    what: "journal.ndjson from a newer Cairn",
    argv: argv("preview"),
    code: 1,
    setup: true,
    before: (dir) => writeFile(journal(dir), '{"t":"head","v":99,"serial":1}\n'),
    message: /journal\.ndjson was written by a newer Cairn \(journal format v99, this build reads up to v2\): upgrade cairn/,
  },
  {
    what: "journal.ndjson with an end record no begin started",
    argv: argv("preview"),
    code: 1,
    setup: true,
    before: async (dir) => {
      const serial = (JSON.parse(await readFile(snapshot(dir), "utf8")) as { serial: number }).serial;
      await writeFile(journal(dir), `{"t":"head","v":2,"serial":${serial}}\n{"t":"end","op":77,"r":{"id":"x","inputs":{},"outputs":{},"deps":[]}}\n{"t":"mutate","m":[]}\n`);
    },
    message: /journal\.ndjson line 2 is damaged \(a short end record for operation 77, which no begin record before it started\)/,
  },
  {
    what: "journal.ndjson holding a pending create of another stack",
    argv: argv("up", "--yes"),
    code: 1,
    setup: true,
    before: async (dir) => {
      const serial = (JSON.parse(await readFile(snapshot(dir), "utf8")) as { serial: number }).serial;
      await writeFile(journal(dir), `{"t":"head","v":2,"serial":${serial}}\n{"t":"begin","op":1,"kind":"create","urn":"urn:cairn:prod::bad::bad:in:Box::a","type":"bad:in:Box","since":"2026-01-01T00:00:00.000Z"}\n`);
    },
    message: /journal\.ndjson holds an interrupted create of urn:cairn:prod::bad::bad:in:Box::a, a resource of stack "prod" of project "bad", not of stack "dev": the journal belongs to another stack.*Nothing was changed/,
  },
  { what: "config.json that is not JSON", argv: argv("preview"), code: 1, setup: true, before: (dir) => writeFile(join(stackDir(dir), "config.json"), "{ nope"), message: /config\.json is not valid JSON .*: fix it by hand or restore it from a backup/ },
  { what: "config.json of the wrong shape", argv: argv("config", "list"), code: 1, setup: true, before: (dir) => writeFile(join(stackDir(dir), "config.json"), '{"values":[1,2]}'), message: /config\.json.*expected \{ "values": \{ "key": "value" \| \{ "\$secret": "\.\.\." \} \} \}/ },
  {
    what: "a secret config value read with the wrong passphrase",
    argv: argv("config", "get", "token", "--show-secrets"),
    code: 1,
    env: { CAIRN_PASSPHRASE: "not-the-passphrase" },
    before: async (dir) => (await import("./run-in.js")).runCliIn(dir, ["config", "set", "token", "s3cret", "--secret"]),
    message: /CAIRN_PASSPHRASE/,
  },
  {
    what: "a secret config value set without a passphrase",
    argv: argv("config", "set", "token", "s3cret", "--secret"),
    code: 1,
    env: { CAIRN_PASSPHRASE: "" },
    message: /cannot store a secret without a passphrase: set CAIRN_PASSPHRASE/,
  },
  {
    what: "recorded dependencies that form a cycle",
    argv: argv("destroy", "--yes"),
    code: 1,
    setup: () => {
      const a = new box.Type("a", { v: 1 });
      new box.Type("b", { v: a.id });
    },
    before: editState((s) => {
      const [a, b] = Object.keys(s.resources) as [string, string];
      s.resources[a].deps = [b];
      s.resources[b].deps = [a];
    }),
    message: /The apply order has a cycle: .*The dependencies recorded in state contradict each other \(a state edited by hand, or damaged\): nothing was changed/,
  },
  ...(["EMFILE", "EACCES", "EIO"] as const).map((code): Case => ({
    what: `state.json that cannot be read (${code})`,
    argv: argv("preview"),
    code: 1,
    setup: true,
    before: async () => failReads("state.json", code),
    after: async () => restoreReads(),
    message: new RegExp(`cannot read .*state\\.json \\(${code}: .*\\)\\. Nothing was changed`),
  })),
];

const realReadFile = fs.promises.readFile;
const realOpen = fs.promises.open;
/** Makes reads of files named `name` fail with `code` (reading it whole, or opening it), as a full file table or a permission problem would. */
function failReads(name: string, code: string): void {
  const fail = (file: unknown) => {
    if (typeof file === "string" && file.endsWith(name)) throw Object.assign(new Error(`${code}: simulated, open '${file}'`), { code });
  };
  fs.promises.readFile = (async (file: fs.PathLike | fs.promises.FileHandle, ...rest: unknown[]) => {
    fail(file);
    return (realReadFile as (...a: unknown[]) => Promise<unknown>)(file, ...rest);
  }) as typeof fs.promises.readFile;
  fs.promises.open = (async (file: fs.PathLike, ...rest: unknown[]) => {
    fail(file);
    return (realOpen as (...a: unknown[]) => Promise<unknown>)(file, ...rest);
  }) as typeof fs.promises.open;
}
function restoreReads(): void {
  fs.promises.readFile = realReadFile;
  fs.promises.open = realOpen;
}

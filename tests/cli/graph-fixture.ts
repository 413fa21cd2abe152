import { ComponentResource } from "../../src/program/resource.js";
import { secret } from "../../src/program/output.js";
import { seconds } from "../../src/core/duration.js";
import type { ProgramFn } from "../../src/entry/program.js";
import { wait } from "../../src/wait/wait.js";
import { local } from "../../src/providers/local/index.js";

/** The secret input of the fixture: it may not appear in any picture or page. */
export const SECRET = "hunter2-fixture-password";
/** A value derived from it that does not contain it (reversed): masked because it is derived, not by matching. */
export const DERIVED = [...SECRET].reverse().join("");

/** A component grouping two files. */
class Site extends ComponentResource {
  constructor(name: string, round: number) {
    super("acme:Site", name);
    new local.File(`${name}-index`, { path: `out/${name}.html`, content: round === 1 ? "<h1>hi</h1>" : "<h1>hello</h1>" }, { parent: this });
    new local.File(`${name}-creds`, { path: `out/${name}-creds.txt`, content: secret(SECRET) }, { parent: this });
  }
}

/**
 * The graph tests' program. Round 1 creates a site (a component), a command, a wait on it, and files from
 * the gated value and from a secret; round 2 updates a file, replaces one create-first and one delete-first,
 * and deletes one, so its plan has every kind of change.
 */
export const graphProgram: ProgramFn = ({ config }) => {
  const round = config.getNumber("round") ?? 1;
  new Site("www", round);
  const svc = new local.Command<{ status: string }>("svc", { create: "echo started", read: `echo '{"status":"ready"}'` });
  const ready = wait(svc, { name: "ready", until: (c) => c.attributes.status.eq("ready"), timeout: seconds(30) });
  new local.File("note", { path: "out/note.txt", content: ready.stdout.apply((s) => `${s}\n`) });
  new local.File("derived", { path: "out/derived.txt", content: secret(SECRET).apply((s) => [...s].reverse().join("")) });
  new local.File("moved", { path: round === 1 ? "out/a.txt" : "out/b.txt", content: "x" });
  new local.File("swapped", { path: round === 1 ? "out/c.txt" : "out/d.txt", content: "y" }, { deleteBeforeReplace: true });
  if (round === 1) new local.File("gone", { path: "out/gone.txt", content: "bye" });
};

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ComponentResource, secret } from "../../src/index.js";
import { local } from "../../src/providers/local/index.js";
import { openBackend } from "../../src/state/open-backend.js";
import { programIn, run } from "./harness.js";

// The stack reads the passphrase from the process environment (the in-process CLI's env is for display).
beforeEach(() => void vi.stubEnv("CAIRN_PASSPHRASE", "state-edit-test"));
afterEach(() => void vi.unstubAllEnvs());

const URN = (name: string, types = "local:File") => `urn:cairn:dev::app::${types}::${name}`;
const exists = (p: string) => access(p).then(() => true, () => false);

/**
 * A program whose declarations a test changes between runs: `a`, `b` (its content is a's hash, so it
 * depends on a), `vault` (protected, with a secret input), plus whatever `extra` declares.
 */
async function project() {
  const decl = { aName: "a", aInComponent: false, extra: (): void => {} };
  const { prog, dir } = await programIn("app", () => {
    const parent = decl.aInComponent ? new ComponentResource("acme:Site", "site") : undefined;
    const a = new local.File(decl.aName, { path: "out/a.txt", content: "A" }, parent ? { parent } : {});
    new local.File("b", { path: "out/b.txt", content: a.sha256 });
    new local.File("vault", { path: "out/vault.txt", content: secret("hunter2") }, { protect: true });
    decl.extra();
  });
  const cli = (...argv: string[]) => run(prog, argv);
  const up = await cli("up", "--yes");
  expect(up.code, up.stderr).toBe(0);
  const list = async () => JSON.parse((await cli("state", "list", "--json")).stdout).map((r: { urn: string }) => r.urn).sort() as string[];
  const history = async () => JSON.parse((await cli("state", "history", "--json")).stdout) as { version: number; current: boolean }[];
  return { prog, dir, decl, cli, list, history };
}

describe("state show", () => {
  it("shows a resource by name or URN: type, id, provider, dependencies both ways, inputs and outputs", async () => {
    const { cli } = await project();
    const byName = await cli("state", "show", "a");
    expect(byName.code, byName.stderr).toBe(0);
    expect(byName.stdout).toBe((await cli("state", "show", URN("a"))).stdout);
    const text = byName.stdout;
    expect(text.split("\n")[0]).toBe(URN("a"));
    expect(text).toMatch(/type\s+local:File/);
    expect(text).toMatch(/id\s+out\/a\.txt/);
    expect(text).toMatch(/provider\s+default/);
    expect(text).toContain(`needed by\n    ${URN("b")}`);
    expect(text).toContain('    content: "A"');
    expect((await cli("state", "show", "b")).stdout).toContain(`depends on\n    ${URN("a")}`);
  });

  it("masks secrets in text and JSON unless --show-secrets", async () => {
    const { cli } = await project();
    const text = await cli("state", "show", "vault");
    expect(text.stdout).toContain("content: [secret]");
    expect(text.stdout).toMatch(/flags\s+protected/);
    expect(text.stdout).not.toContain("hunter2");
    const json = JSON.parse((await cli("state", "show", "vault", "--json")).stdout);
    expect(json).toMatchObject({ urn: URN("vault"), id: "out/vault.txt", inputs: { content: "[secret]" }, outputs: { content: "[secret]" }, protect: true, dependents: [] });
    expect((await cli("state", "show", "vault", "--show-secrets")).stdout).toContain('content: "hunter2"');
  });

  it("names the candidates of an ambiguous name, and says how to list URNs for an unknown one", async () => {
    const { cli, decl } = await project();
    decl.extra = () => void new local.File("a", { path: "out/a2.txt", content: "x" }, { parent: new ComponentResource("acme:Box", "box") });
    expect((await cli("up", "--yes")).code).toBe(0);
    const ambiguous = await cli("state", "show", "a");
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain(`"a" names 2 resources of stack "dev"; give the URN of the one you mean:`);
    expect(ambiguous.stderr).toContain(URN("a", "acme:Box$local:File"));
    const unknown = await cli("state", "show", "nope");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Stack "dev" has no resource named "nope" (it has 4 resources): `state list` shows their URNs.');
  });
});

describe("state rm", () => {
  it("refuses to forget a resource another depends on, or a protected one, and changes nothing", async () => {
    const { cli, list, history } = await project();
    const before = await history();
    const r = await cli("state", "rm", "a", "vault", "--yes");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Nothing was forgotten:");
    expect(r.stderr).toContain(`${URN("a")} is needed by ${URN("b")}: forget those too, or pass --force`);
    expect(r.stderr).toContain(`${URN("vault")} is protected: \`state unprotect\` it first, or pass --force.`);
    expect(await list()).toEqual([URN("a"), URN("b"), URN("vault")]);
    expect(await history()).toEqual(before);
  });

  it("forgets a resource with its dependents, keeps the cloud objects, and state rollback brings them back", async () => {
    const { cli, list, dir } = await project();
    const r = await cli("state", "rm", "a", URN("b"), "--yes");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`state rm will forget 2 resources of stack "dev" (their cloud objects stay, managed by nothing):\n  - ${URN("a")} (id out/a.txt)\n  - ${URN("b")} (id out/b.txt)`);
    expect(r.stdout).toContain("Forgot 2 resources; nothing in the cloud changed.");
    expect(await list()).toEqual([URN("vault")]);
    expect(await readFile(join(dir, "out/a.txt"), "utf8")).toBe("A");

    const previous = Number(/Previous version: (\d+) — `npx tsx infra\.ts state rollback (\d+)` undoes this\./.exec(r.stdout)?.[1]);
    expect(Number.isInteger(previous)).toBe(true);
    expect((await cli("state", "rollback", String(previous))).stderr).toContain("state rollback changes the state and needs confirmation");
    expect((await cli("state", "rollback", String(previous), "--yes")).code).toBe(0);
    expect(await list()).toEqual([URN("a"), URN("b"), URN("vault")]);
  });

  it("with --force forgets a resource others depend on, and their records stop pointing at it", async () => {
    const { cli, list } = await project();
    const r = await cli("state", "rm", "a", "--force", "--yes");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`and drop the dependencies on it recorded for: ${URN("b")}`);
    expect(await list()).toEqual([URN("b"), URN("vault")]);
    expect(JSON.parse((await cli("state", "show", "b", "--json")).stdout).deps).toEqual([]);
  });

  it("needs --yes where nobody can answer; on a terminal it asks, and a no changes nothing", async () => {
    const { prog, cli, list } = await project();
    const piped = await cli("state", "rm", "b");
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain("error: state rm changes the state and needs confirmation, and this is not an interactive terminal: pass --yes to go ahead.");
    expect(piped.stdout).toContain(`state rm will forget 1 resource of stack "dev"`);

    const asked: string[] = [];
    const tty = (answer: boolean) => ({ stdinIsTTY: true, stdoutIsTTY: true, confirm: async (q: string) => (asked.push(q), answer) });
    const no = await run(prog, ["state", "rm", "b", "--no-color"], tty(false));
    expect(no.code, no.stderr).toBe(0);
    expect(no.stdout).toContain("Nothing was changed.");
    expect(await list()).toContain(URN("b"));
    const yes = await run(prog, ["state", "rm", "b", "--no-color"], tty(true));
    expect(yes.code, yes.stderr).toBe(0);
    expect(asked).toEqual(["Forget this resource?", "Forget this resource?"]);
    expect(await list()).not.toContain(URN("b"));
  });
});

describe("state mv", () => {
  it("renames a resource so the program's new name plans no change, and its dependents follow", async () => {
    const { cli, decl, list } = await project();
    decl.aName = "a2";
    const without = await cli("preview", "--expect-no-changes");
    expect(without.code).toBe(1); // the rename alone would delete a and create a2
    const r = await cli("state", "mv", "a", "a2", "--yes");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`  ${URN("a")}\n  → ${URN("a2")}`);
    expect(r.stdout).toMatch(/Previous version: \d+/);
    expect(await list()).toEqual([URN("a2"), URN("b"), URN("vault")]);
    expect(JSON.parse((await cli("state", "show", "b", "--json")).stdout).deps).toEqual([URN("a2")]);
    const preview = await cli("preview", "--expect-no-changes");
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
  });

  it("moves a resource under a component with the URN the program now gives it, parent included", async () => {
    const { cli, decl } = await project();
    decl.aInComponent = true;
    const target = URN("a", "acme:Site$local:File");
    const r = await cli("state", "mv", "a", target, "--yes");
    expect(r.code, r.stderr).toBe(0);
    const moved = JSON.parse((await cli("state", "show", target, "--json")).stdout);
    expect(moved.parent).toBe("urn:cairn:dev::app::acme:Site::site");
    expect(JSON.parse((await cli("state", "show", "b", "--json")).stdout).deps).toEqual([target]);
    const preview = await cli("preview", "--expect-no-changes");
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
  });

  it("moves a resource's children with it when its parents change", async () => {
    const { cli, decl } = await project();
    let inSite = false;
    decl.extra = () => {
      const site = inSite ? new ComponentResource("acme:Site", "site") : undefined;
      const p = new local.File("p", { path: "out/p.txt", content: "P" }, site ? { parent: site } : {});
      new local.File("c", { path: "out/c.txt", content: "C" }, { parent: p });
    };
    expect((await cli("up", "--yes")).code).toBe(0);
    inSite = true;
    const r = await cli("state", "mv", "p", URN("p", "acme:Site$local:File"), "--yes");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`  ${URN("c", "local:File$local:File")}\n  → ${URN("c", "acme:Site$local:File$local:File")}`);
    const child = JSON.parse((await cli("state", "show", URN("c", "acme:Site$local:File$local:File"), "--json")).stdout);
    expect(child.parent).toBe(URN("p", "acme:Site$local:File"));
    const preview = await cli("preview", "--expect-no-changes");
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
  });

  it("refuses a type change, a URN of another stack, and a name already taken", async () => {
    const { cli, history } = await project();
    const before = await history();
    const type = await cli("state", "mv", "a", URN("a", "local:Dir"), "--yes");
    expect(type.stderr).toContain("state mv cannot change a resource's type");
    const other = await cli("state", "mv", "a", "urn:cairn:prod::app::local:File::a", "--yes");
    expect(other.stderr).toContain('is a URN of stack "prod" of project "app", not of stack "dev" of "app"');
    const taken = await cli("state", "mv", "a", "b", "--yes");
    expect(taken.stderr).toContain(`${URN("b")} is already in state (id out/b.txt)`);
    for (const r of [type, other, taken]) expect(r.code).toBe(1);
    expect(await history()).toEqual(before);
  });
});

describe("state import", () => {
  it("reads an existing object and adopts it: the next preview of a program declaring its values shows no changes", async () => {
    const { cli, decl, dir } = await project();
    await mkdir(join(dir, "legacy"), { recursive: true });
    await writeFile(join(dir, "legacy/motd.txt"), "welcome");
    decl.extra = () => void new local.File("motd", { path: "legacy/motd.txt", content: "welcome" });
    expect((await cli("preview", "--expect-no-changes")).code).toBe(1); // without the import it would be created

    const r = await cli("state", "import", "local:File", "motd", "legacy/motd.txt", "--yes");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Imported local:File "legacy/motd.txt" as ${URN("motd")}.`);
    expect(r.stdout).toMatch(/Previous version: \d+/);
    const record = JSON.parse((await cli("state", "show", "motd", "--json")).stdout);
    expect(record).toMatchObject({ id: "legacy/motd.txt", inputs: { path: "legacy/motd.txt", content: "welcome" }, outputs: { size: 7 } });
    const preview = await cli("preview", "--expect-no-changes");
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);

    decl.extra = () => void new local.File("motd", { path: "legacy/motd.txt", content: "welcome!" });
    const differs = await cli("preview", "--expect-no-changes");
    expect(differs.code).toBe(1);
    expect(differs.stdout).toMatch(/~ .*motd/);
  });

  it("refuses what the program does not declare, an id that finds nothing, a resource already in state, and an object already recorded", async () => {
    const { cli, decl, history } = await project();
    const before = await history();
    const undeclared = await cli("state", "import", "local:File", "ghost", "out/a.txt", "--yes");
    expect(undeclared.stderr).toContain('The program "app" does not declare a local:File named "ghost". It declares these local:File resources: "a", "b", "vault".');
    decl.extra = () => void new local.File("motd", { path: "legacy/motd.txt", content: "welcome" });
    const missing = await cli("state", "import", "local:File", "motd", "legacy/none.txt", "--yes");
    expect(missing.stderr).toContain('There is no local:File with id "legacy/none.txt" (its provider found nothing); nothing was imported. Check the id.');
    const twin = await cli("state", "import", "local:File", "motd", "out/a.txt", "--yes");
    expect(twin.stderr).toContain(`The local:File "out/a.txt" is already in state as ${URN("a")}; nothing was imported (one object, one record).`);
    const again = await cli("state", "import", "local:File", "a", "out/a.txt", "--yes");
    expect(again.stderr).toContain(`${URN("a")} is already in state (id out/a.txt); nothing was imported.`);
    for (const r of [undeclared, missing, twin, again]) expect(r.code).toBe(1);
    expect(await history()).toEqual(before);
  });
});

describe("state unprotect", () => {
  it("clears protect so the resource can be deleted; an unprotected resource is left alone", async () => {
    const { cli, history } = await project();
    const r = await cli("state", "unprotect", "vault", "--yes");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${URN("vault")} is no longer protected.`);
    expect(JSON.parse((await cli("state", "show", "vault", "--json")).stdout).protect).toBeUndefined();
    const versions = await history();
    const same = await cli("state", "unprotect", "a", "--yes");
    expect(same.stdout).toBe(`${URN("a")} is not protected; nothing was changed.`);
    expect(await history()).toEqual(versions);
  });
});

describe("every state change", () => {
  it("needs --yes where nobody can answer, and changes nothing without it", async () => {
    const { cli, history, decl, dir } = await project();
    await writeFile(join(dir, "motd.txt"), "hello");
    decl.extra = () => void new local.File("motd", { path: "motd.txt", content: "hello" });
    const before = await history();
    for (const argv of [["state", "rm", "b"], ["state", "mv", "a", "a2"], ["state", "unprotect", "vault"], ["state", "import", "local:File", "motd", "motd.txt"], ["state", "rollback", String(before[0]!.version)], ["stack", "rm", "dev", "--force"]]) {
      const r = await cli(...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr, argv.join(" ")).toContain(`error: ${argv.slice(0, 2).join(" ")} changes the state and needs confirmation, and this is not an interactive terminal: pass --yes to go ahead.`);
    }
    expect(await history()).toEqual(before);
  });


  it("is refused, naming the holder, while another run holds the stack", async () => {
    const { cli, dir, list } = await project();
    const lock = await openBackend({ stateDir: join(dir, ".cairn"), stack: "dev", project: "app" }).lock({ command: "up" });
    try {
      for (const argv of [["state", "rm", "b"], ["state", "mv", "a", "a2"], ["state", "unprotect", "vault"], ["state", "import", "local:File", "a", "out/a.txt"], ["stack", "rm", "dev", "--force"]]) {
        const r = await cli(...argv, "--yes");
        expect(r.code, argv.join(" ")).toBe(1);
        expect(r.stderr, argv.join(" ")).toMatch(/stack dev is locked by pid \d+ on \S+ since \S+ \(for \d+s; command: up\)/);
      }
    } finally {
      await lock.release();
    }
    expect(await list()).toEqual([URN("a"), URN("b"), URN("vault")]);
    expect(await exists(join(dir, ".cairn/stacks/dev/state.json"))).toBe(true);
  });
});

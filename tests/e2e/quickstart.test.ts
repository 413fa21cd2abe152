import { afterEach, describe, expect, it } from "vitest";
import { access, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { spawn } from "node:child_process";
import { REPO, cli, finish } from "./cli-harness.js";
import { isRunning, quickstartProject, serverPids, stopServers } from "./quickstart-project.js";

const projects: string[] = [];
afterEach(async () => {
  for (const d of projects.splice(0)) await stopServers(d);
});

/** Output with what changes between runs (durations, ports) replaced, for snapshots. */
const normalise = (s: string) =>
  s
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT")
    .replace(/\((\d+ms|\d+(m\d+)?s)\)/g, "(T)")
    .replace(/in \d+(m\d+)?s$/gm, "in T")
    .replace(/\[waited \d+s\]/g, "[waited T]")
    .split("\n")
    .filter((l) => !/^> healthy {2}waiting/.test(l)) // how many polls it takes depends on timing
    .join("\n");

describe("the quickstart (examples/quickstart)", () => {
  it("up starts a server, waits for its health check, writes a file from the gated snapshot; destroy stops it", async () => {
    const dir = await quickstartProject();
    projects.push(dir);
    const started = Date.now();
    const up = await cli(dir, ["up", "--yes"], { WARM_UP_MS: "3000" });
    expect(up.code, up.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
    // Seen while it warmed up (its first poll, at once; a loaded machine took a second to start the server's
    // first health check, so the line may say 1s).
    expect(up.stdout).toMatch(/^> healthy {2}waiting \ds {2}\(attributes\.status = "starting"\)$/m);
    expect(normalise(up.stdout)).toMatchInlineSnapshot(`
      "Stack "dev" is new: up creates it.
      + create urn:cairn:dev::quickstart::local:Command::server
            create: "node server/start.mjs"
            delete: "node server/stop.mjs"
            read: "node server/health.mjs"
            environment: {"GREETING":"hello","RUN_DIR":"out/dev"}
      > healthy (until server.attributes.status == "ready")
            timeout 30s
            runs because server is created
      + create urn:cairn:dev::quickstart::local:File::link
            path: "out/dev/url.txt"
            content: (known after apply)

      Outputs:
        url: (known after apply)
        greeting: (known after apply)
        urlFile: "out/dev/url.txt"

      Plan: 2 to create, 1 wait.

      ✓ created urn:cairn:dev::quickstart::local:Command::server (T)
      ✓ > healthy  [waited T]  (attributes.status = "ready")
      ✓ created urn:cairn:dev::quickstart::local:File::link (T)

      Done: 2 created, 1 wait satisfied in T

      Outputs:
        url: "http://127.0.0.1:PORT/"
        greeting: "hello"
        urlFile: "out/dev/url.txt"
      "
    `);

    // The server answers at the URL the gated snapshot reported, and the file holds that URL.
    const url = (await cli(dir, ["outputs", "url"])).stdout.trim();
    expect(await (await fetch(url)).text()).toBe("hello from a server Cairn started\n");
    expect(await readFile(join(dir, "out/dev/url.txt"), "utf8")).toBe(`${url}\n`);
    const [pid] = await serverPids(dir);

    // Settled: nothing to do, and the wait makes no reads.
    const again = await cli(dir, ["preview", "--expect-no-changes"]);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('> healthy (until server.attributes.status == "ready")  not needed');

    // A config change updates the server (restarted), the wait runs again, the file follows.
    expect((await cli(dir, ["config", "set", "greeting", "hi"])).code).toBe(0);
    const diff = await cli(dir, ["preview", "--diff"]);
    expect(diff.stdout).toContain('      environment.GREETING: "hello" → "hi"');
    const update = await cli(dir, ["up", "--yes"]);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toContain("Done: 2 updated, 1 wait satisfied in");
    const newUrl = (await cli(dir, ["outputs", "url"])).stdout.trim();
    expect(await (await fetch(newUrl)).text()).toBe("hi from a server Cairn started\n");
    expect(await isRunning(pid!)).toBe(false);

    // destroy stops the server and removes the file.
    const [newPid] = await serverPids(dir);
    const down = await cli(dir, ["destroy", "--yes"]);
    expect(down.code, down.stderr).toBe(0);
    expect(await isRunning(newPid!)).toBe(false);
    await expect(access(join(dir, "out/dev/url.txt"))).rejects.toThrow();
  }, 120_000);

  it("the README's first command works from the repository, offline, in seconds", async () => {
    const stack = `readme-${randomBytes(4).toString("hex")}`;
    const stateDir = await mkdtemp(join(tmpdir(), "cairn-readme-"));
    const run = (args: string[]) =>
      finish(spawn(join(REPO, "node_modules/.bin/tsx"), ["examples/quickstart/infra.ts", ...args, "--stack", stack, "--state-dir", stateDir], { cwd: REPO, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] }));
    try {
      const started = Date.now();
      const up = await run(["up", "--yes"]);
      expect(up.code, up.stdout + up.stderr).toBe(0);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(up.stdout).toContain("Done: 2 created, 1 wait satisfied in");
      const down = await run(["destroy", "--yes"]);
      expect(down.code, down.stderr).toBe(0);
    } finally {
      const pidFile = join(REPO, "examples/quickstart/out", stack, "server.json");
      const info = await readFile(pidFile, "utf8").catch(() => undefined);
      if (info) process.kill((JSON.parse(info) as { pid: number }).pid, "SIGKILL");
      await rm(join(REPO, "examples/quickstart/out", stack), { recursive: true, force: true });
      await rm(stateDir, { recursive: true, force: true });
    }
  }, 120_000);
});

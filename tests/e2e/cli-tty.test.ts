import { afterEach, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { REPO } from "./cli-harness.js";
import { quickstartProject, serverPids, stopServers } from "./quickstart-project.js";

// util-linux `script` runs the CLI under a pseudo-terminal, as a person's shell would.
const hasScript = spawnSync("script", ["--version"]).status === 0;
const TSX = join(REPO, "node_modules/.bin/tsx");

const projects: string[] = [];
afterEach(async () => {
  for (const d of projects.splice(0)) await stopServers(d);
});

interface Session {
  code: number | null;
  output: string;
}

/**
 * Runs `infra.ts <args>` in a 100×30 pseudo-terminal; when the output shows `prompt`, types `answer`.
 * Returns everything the terminal received (escape sequences included).
 */
function terminal(dir: string, args: string[], o: { prompt?: string; answer?: string; env?: Record<string, string> } = {}): Promise<Session> {
  const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_PASSPHRASE: "tty", TERM: "xterm-256color", ...o.env };
  for (const k of ["CI", "NO_COLOR", "FORCE_COLOR"]) if (!(o.env && k in o.env)) delete env[k];
  const child = spawn("script", ["-qfec", `stty cols 100 rows 30; ${TSX} infra.ts ${args.join(" ")}`, "/dev/null"], { cwd: dir, env, stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  let answered = false;
  child.stdout.on("data", (d: Buffer) => {
    output += d.toString();
    if (o.prompt && !answered && output.includes(o.prompt)) {
      answered = true;
      setTimeout(() => child.stdin.write(o.answer ?? ""), 100);
    }
  });
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, output })));
}

const COLOUR = /\x1b\[3\dm/;
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

describe("the CLI in a terminal (under a pseudo-terminal)", () => {
  it("script(1) is available to drive a terminal", () => {
    expect(hasScript, "install util-linux (it provides `script`)").toBe(true);
  });

  it("up asks before applying; answered yes, it draws running steps live, collapses them into result lines, and summarises", async () => {
    const dir = await quickstartProject();
    projects.push(dir);
    const s = await terminal(dir, ["up"], { prompt: "Apply these changes", answer: "y\r", env: { WARM_UP_MS: "2500" } });
    expect(s.code, s.output).toBe(0);
    expect(s.output).toMatch(COLOUR);
    expect(s.output).toContain('Apply these changes to stack "dev"?');
    // Live lines: a spinner, the step and its elapsed time; the wait with what it observed; redrawn in place.
    expect(s.output).toMatch(new RegExp(`${SPINNER.source}.*creating.* server \\(local:Command\\)`));
    expect(s.output).toMatch(new RegExp(`${SPINNER.source}.*>.* healthy {2}waiting \\ds {2}.*attributes\\.status = "starting"`));
    expect(s.output).toContain("\x1b[2K"); // erased and redrawn
    expect(s.output).toMatch(/✓.* created urn:cairn:dev::quickstart::local:Command::server/);
    expect(s.output).toMatch(/Done:.* 2 created, 1 wait satisfied in \ds/);
    expect(await serverPids(dir)).toHaveLength(1);
  }, 120_000);

  it("answered no, nothing is changed; NO_COLOR turns colours off even in a terminal", async () => {
    const dir = await quickstartProject();
    projects.push(dir);
    const s = await terminal(dir, ["up"], { prompt: "Apply these changes", answer: "n\r", env: { NO_COLOR: "1" } });
    expect(s.code, s.output).toBe(0);
    expect(s.output).toContain("Cancelled: nothing was changed.");
    expect(s.output).not.toMatch(COLOUR);
    expect(await serverPids(dir)).toEqual([]);
  }, 120_000);

  it("Ctrl-C at the prompt cancels with exit code 130", async () => {
    const dir = await quickstartProject();
    projects.push(dir);
    const s = await terminal(dir, ["up"], { prompt: "Apply these changes", answer: "\x03" });
    expect(s.code, s.output).toBe(130);
    expect(s.output).toContain("Cancelled: nothing was changed.");
    expect(await serverPids(dir)).toEqual([]);
  }, 120_000);

  it("with CI=true a terminal gets plain lines (no redrawing), which CI logs can show", async () => {
    const dir = await quickstartProject();
    projects.push(dir);
    const s = await terminal(dir, ["up", "--yes"], { env: { CI: "true", WARM_UP_MS: "2500" } });
    expect(s.code, s.output).toBe(0);
    expect(s.output).not.toMatch(SPINNER);
    expect(s.output).not.toContain("\x1b[2K");
    expect(s.output).toMatch(COLOUR); // CI log viewers show colour
    expect(stripVTControlCharacters(s.output)).toMatch(/^> healthy {2}waiting \ds {2}\(attributes\.status = "starting"\)\r?$/m);
    await stopServers(dir);
  }, 120_000);
});

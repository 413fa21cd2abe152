import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Interrupts, RELAY_WINDOW_MS, underSignalRelay } from "../../src/cli/interrupts.js";
import { holdEarlyInterrupts } from "../../src/core/early-interrupts.js";
import { finish, start, tempProject, waitFor } from "../e2e/cli-harness.js";
import { slowProgram } from "../e2e/programs.js";

// Under `npx tsx`, one terminal Ctrl-C reaches the program twice when tsx relays its own copy (it does when
// the program has not reported the signal within 30 ms): the copy must not count as a second Ctrl-C.

function counted(sameWithinMs: number) {
  let t = 0;
  const said: string[] = [];
  const exits: number[] = [];
  const i = new Interrupts((m) => said.push(m), (c) => void exits.push(c), sameWithinMs, () => t);
  return { i, said, exits, at: (ms: number) => void (t = ms) };
}

describe("Ctrl-C relayed by tsx", () => {
  it("a copy within the window is the same Ctrl-C: only the first interrupt is made", () => {
    const { i, at } = counted(RELAY_WINDOW_MS);
    try {
      i.signal();
      at(40);
      i.signal();
      expect(i.stopStarting.aborted).toBe(true);
      expect(i.abandonCalls.aborted).toBe(false);
    } finally {
      i.dispose();
    }
  });

  it("a second Ctrl-C pressed after the window stops at once, and its own copy is ignored", () => {
    const { i, at, exits } = counted(RELAY_WINDOW_MS);
    try {
      i.signal();
      at(RELAY_WINDOW_MS + 200);
      i.signal();
      expect(i.abandonCalls.aborted).toBe(true);
      at(RELAY_WINDOW_MS + 230);
      i.signal();
      expect(exits).toEqual([]);
    } finally {
      i.dispose();
    }
  });

  it("without a relay every signal counts", () => {
    const { i, at } = counted(0);
    try {
      i.signal();
      at(1);
      i.signal();
      expect(i.abandonCalls.aborted).toBe(true);
    } finally {
      i.dispose();
    }
  });

  it.each([
    [RELAY_WINDOW_MS, false],
    [0, true],
  ])("a Ctrl-C and its relayed copy while the command line loads are one Ctrl-C under the relay (window %s ms: stopped at once = %s)", (window, stopped) => {
    // Nothing else in this worker listens for SIGINT: emitting it reaches only the early counter.
    holdEarlyInterrupts();
    process.emit("SIGINT");
    process.emit("SIGINT");
    const i = new Interrupts(() => {}, () => {}, window, () => 0);
    try {
      expect(i.stopStarting.aborted).toBe(true);
      expect(i.abandonCalls.aborted).toBe(stopped);
    } finally {
      i.dispose();
    }
  });

  it("the relay is recognised by tsx's preflight in the process's Node options, and only by it", () => {
    expect(underSignalRelay(["--require", "/p/node_modules/tsx/dist/preflight.cjs", "--import", "file:///p/node_modules/tsx/dist/loader.mjs"])).toBe(true);
    expect(underSignalRelay(["--import", "tsx"])).toBe(false);
    expect(underSignalRelay([])).toBe(false);
  });

  it("end to end: Ctrl-C to the process group of `npx tsx infra.ts up`, plus tsx's relayed copy, is one Ctrl-C: creates finish and are saved, exit 130", async () => {
    const program = slowProgram(4).replace(`export default program(`, `import { writeFileSync } from "node:fs";\nwriteFileSync("pid", String(process.pid));\nexport default program(`);
    const dir = await tempProject({ "infra.ts": program });
    const child = start(dir, ["up", "--yes", "--parallel", "2"], { SLOW_MS: "1500", CI: "true" });
    const done = finish(child);
    await waitFor(async () => (await readFile(join(dir, "started", "0")).then(() => true, () => false)) && (await readFile(join(dir, "started", "1")).then(() => true, () => false)));
    const programPid = Number(await readFile(join(dir, "pid"), "utf8"));
    // The terminal signals the whole group (tsx and the program); tsx's relay sends the program one more.
    process.kill(-child.pid!, "SIGINT");
    await new Promise((r) => setTimeout(r, 30));
    process.kill(programPid, "SIGINT");
    const r = await done;
    expect(r.code, r.stdout + r.stderr).toBe(130);
    expect(r.stderr).toMatch(/Cancelling: nothing new starts/);
    expect(r.stderr).not.toMatch(/Stopping now/);
    expect(r.stderr).toMatch(/Cancelled: 2 finished and saved, 2 not started/);
  });
});

import { spawn } from "node:child_process";
import { access, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { judge, type Judged, type Outcome } from "./classify.js";

// Bad inputs that only a real process shows: a program that ends the process, or leaves it with nothing to
// do, while a command runs. Each runs `npx tsx infra.ts <command>` in a temp project whose `cairn-iac` is
// this repository's build (`npm run build` first). The "cloud" is the files the program's local.File makes.

const REPO = resolve(import.meta.dirname, "../..");
const TSX = join(REPO, "node_modules", ".bin", "tsx");

/** One case run as a process. */
export interface ProcessCase {
  what: string;
  /** The body of the program, after it declares out/a.txt. */
  body: string;
  /** The program's name expression (default `"bad"`). */
  name?: string;
  argv: string[];
  env?: Record<string, string>;
  code: number;
  message: RegExp;
  /** Whether the run may make out/a.txt (it applied before the problem). */
  applies?: boolean;
}

/** A program file whose body declares one file, then does `body`. */
const programFile = (c: ProcessCase) => `import { program } from "cairn-iac";
import { local } from "cairn-iac/local";
export default program(${c.name ?? `"bad"`}, async () => {
  new local.File("a", { path: "out/a.txt", content: "x" });
  ${c.body}
});
`;

export const processCases: ProcessCase[] = [
  { what: "a program body that never settles, with up", body: "await new Promise(() => {});", argv: ["up", "--yes"], code: 1, message: /the program's body never finished \(the program\(\.\.\.\) at infra\.ts:3:16\)/ },
  { what: "a program body that never settles, with preview", body: "await new Promise(() => {});", argv: ["preview"], code: 1, message: /the program's body never finished/ },
  { what: "a program body that awaits a timer it clears", body: "await new Promise((r) => clearTimeout(setTimeout(r, 10)));", argv: ["up", "--yes"], code: 1, message: /the program's body never finished/ },
  { what: "process.exit(0) in the program body", body: "process.exit(0);", argv: ["up", "--yes"], code: 1, message: /the program called process\.exit\(0\) at infra\.ts:5:\d+ while `up` was running/ },
  { what: "process.exit(3) in the program body", body: "process.exit(3);", argv: ["up", "--yes"], code: 3, message: /the program called process\.exit\(3\) at infra\.ts:5:\d+ while `up` was running/ },
  { what: "process.exit() in the program body, with preview", body: "process.exit();", argv: ["preview"], code: 1, message: /the program called process\.exit\(0\) at infra\.ts:5:\d+ while `preview` was running/ },
  { what: "a promise of the program rejected after up finished", body: `process.once("beforeExit", () => void Promise.reject(new Error("late boom")));`, argv: ["up", "--yes"], code: 1, applies: true, message: /after `up` finished, the program's own code failed: a promise rejected and nothing handled it \(late boom\)/ },
  { what: "an error thrown by a timer of the program after up finished", body: `process.once("beforeExit", () => setTimeout(() => { throw new Error("timer boom"); }, 1));`, argv: ["up", "--yes"], code: 1, applies: true, message: /after `up` finished, the program's own code failed: it threw an error nothing caught \(timer boom\)/ },
  { what: "a program name with a space from the environment", body: "", name: "process.env.PROJECT as string", env: { PROJECT: "has space" }, argv: ["preview"], code: 1, message: /Invalid program name "has space": .*\n  --> infra\.ts:3:16\n.*It is the value of \$PROJECT in the environment/ },
  { what: "a program name from an unset variable", body: "", name: "process.env.NOPE_UNSET as string", argv: ["preview"], code: 1, message: /Invalid program name undefined/ },
];

const exists = (p: string) => access(p).then(() => true, () => false);

/** Runs one process case and judges it (state: the lock must be gone or taken over; cloud: out/ unless it applies). */
export async function runProcessCase(c: ProcessCase, hangMs = 30_000): Promise<{ outcome: Outcome; judged: Judged; ms: number }> {
  const t0 = Date.now();
  const dir = await mkdtemp(join(tmpdir(), "cairn-bad-proc-"));
  try {
    await mkdir(join(dir, "node_modules"));
    await symlink(REPO, join(dir, "node_modules", "cairn-iac"), "dir");
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "p", type: "module", private: true }));
    await writeFile(join(dir, "infra.ts"), programFile(c));
    const child = spawn(TSX, ["infra.ts", ...c.argv], { cwd: dir, env: { ...process.env, NO_COLOR: "1", CI: "true", CAIRN_PASSPHRASE: "p", ...c.env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise<number | undefined>((res) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        res(undefined);
      }, hangMs);
      child.on("close", (n) => {
        clearTimeout(timer);
        res(n ?? 1);
      });
    });
    // The next run must not be blocked by what this one left: a lock is either gone or taken over at once.
    const next = spawn(TSX, ["infra.ts", "state", "list"], { cwd: dir, env: { ...process.env, NO_COLOR: "1", CAIRN_PASSPHRASE: "p", PROJECT: "bad", NOPE_UNSET: "bad" }, stdio: ["ignore", "pipe", "pipe"] });
    let nextErr = "";
    next.stderr.on("data", (d) => (nextErr += d));
    const nextCode = await new Promise<number | null>((res) => next.on("close", res));
    const blocked = /is locked|holds the lock|another run/i.test(nextErr) && nextCode !== 0;
    const made = await exists(join(dir, "out", "a.txt"));
    const outcome: Outcome = { code, stdout, stderr, stateChanged: blocked, cloudChanged: made && !c.applies };
    return { outcome, judged: judge(outcome, c), ms: Date.now() - t0 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Whether this repository has a build for the process cases to run against. */
export const hasBuild = () => readdir(join(REPO, "dist")).then((f) => f.length > 0, () => false);

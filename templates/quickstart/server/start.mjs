// create (and update): start the server in the background, detached, so `up` does not wait for it.
// Prints the server's { pid, url } as JSON (the Command's stdout). A running one is stopped first.
import { spawn } from "node:child_process";
import { mkdirSync, openSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { pidFile, runDir, running, sleep } from "./lib.mjs";
import { stop } from "./stop.mjs";

mkdirSync(runDir, { recursive: true });
const previous = running();
if (previous) await stop(previous); // an update restarts it
rmSync(pidFile, { force: true });
const log = openSync(join(runDir, "server.log"), "a");
const child = spawn(process.execPath, [fileURLToPath(new URL("./server.mjs", import.meta.url))], { detached: true, stdio: ["ignore", log, log] });
child.unref();
for (let i = 0; i < 100; i++) {
  const info = running();
  if (info?.pid === child.pid) {
    console.log(JSON.stringify(info));
    process.exit(0);
  }
  await sleep(50);
}
console.error(`the server did not start within 5 s: see ${join(runDir, "server.log")}`);
process.exit(1);

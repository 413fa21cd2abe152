// delete: stop the server and remove its pid file. Nothing running is fine (deleting something gone succeeds).
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { alive, pidFile, running, sleep } from "./lib.mjs";

export async function stop() {
  const info = running();
  if (info) {
    process.kill(info.pid, "SIGTERM");
    for (let i = 0; i < 50 && alive(info.pid); i++) await sleep(50);
    if (alive(info.pid)) process.kill(info.pid, "SIGKILL");
  }
  rmSync(pidFile, { force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await stop();

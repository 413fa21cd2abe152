// delete: stop this resource's server (and forget its pid file). Nothing running is fine: deleting
// something already gone succeeds.
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { alive, own, pidFile, running, sleep } from "./lib.mjs";

export async function stop(server = own()) {
  if (server && alive(server.pid)) {
    process.kill(server.pid, "SIGTERM");
    for (let i = 0; i < 50 && alive(server.pid); i++) await sleep(50);
    if (alive(server.pid)) process.kill(server.pid, "SIGKILL");
  }
  if (!running()) rmSync(pidFile, { force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await stop();

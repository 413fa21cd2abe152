// A small web server for the quickstart: it answers "starting" on /health for a moment after it starts
// (as real services do while they warm up), then "ready". Listens on 127.0.0.1 only.
import { createServer } from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const runDir = process.env.RUN_DIR ?? "out";
const readyAt = Date.now() + Number(process.env.WARM_UP_MS ?? 2000);
const greeting = process.env.GREETING ?? "hello";

const server = createServer((req, res) => {
  const url = `http://127.0.0.1:${server.address().port}/`;
  if (req.url === "/health") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ status: Date.now() >= readyAt ? "ready" : "starting", url, greeting }));
  } else {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(`${greeting} from a server Cairn started\n`);
  }
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const { port } = server.address();
  writeFileSync(join(runDir, "server.json"), JSON.stringify({ pid: process.pid, url: `http://127.0.0.1:${port}/` }));
});
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});

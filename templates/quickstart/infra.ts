// {{name}}: starts a small web server, waits until its health check says it is ready, then writes a file
// from what the ready server reported. Offline: everything runs on this machine.
//   node infra.ts preview         what up would do (Node 22.18+ runs TypeScript; on Node 20: npx tsx infra.ts …)
//   node infra.ts up --yes        start it; `destroy --yes` stops it
//   npm test                      the unit tests in infra.test.ts
import { program, seconds, wait } from "cairn-iac";
import { local } from "cairn-iac/local";

/** What server/health.mjs prints: the Command's `attributes`. */
export interface Health {
  status: "starting" | "ready" | "down";
  url: string;
  greeting: string;
}

export default program("{{name}}", ({ stack, config }) => {
  const server = new local.Command<Health>("server", {
    create: "node server/start.mjs", // starts the server detached, prints {"pid":…,"url":…}
    delete: "node server/stop.mjs",
    read: "node server/health.mjs", // prints the health check as JSON (null when not running)
    environment: { GREETING: config.get("greeting") ?? "hello", RUN_DIR: `out/${stack}` },
  });

  // Nothing below runs until the health check reports "ready".
  const healthy = wait(server, { name: "healthy", until: (s) => s.attributes.status.eq("ready"), timeout: seconds(30) });

  // Built from the gated snapshot: the URL of a server known to be ready.
  const page = new local.File("link", { path: `out/${stack}/url.txt`, content: healthy.attributes.apply((h) => `${h.url}\n`) });

  return { url: healthy.attributes.url, greeting: healthy.attributes.greeting, urlFile: page.path };
});

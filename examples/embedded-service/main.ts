// Starts the service on 127.0.0.1:8080 with the stack's state in memory (lost on exit; pass a backend URL such
// as postgres://… or a stateDir to keep it).
// Run it: npx tsx examples/embedded-service/main.ts   then: curl 127.0.0.1:8080/preview
import site from "./infra.ts";
import { createService } from "./service.ts";

const port = Number(process.env.PORT ?? 8080);
createService(site, { stack: "dev", backend: "memory://site" }).listen(port, "127.0.0.1", () => {
  console.log(`site service on http://127.0.0.1:${port}: GET /preview, PUT /config/title, POST /up, GET /outputs`);
});

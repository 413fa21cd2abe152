// read: print this server's health as JSON (the Command's `attributes`), or null when it is not running.
import { alive, own } from "./lib.mjs";

const server = own();
if (!server || !alive(server.pid)) {
  console.log("null");
} else {
  try {
    const res = await fetch(new URL("health", server.url), { signal: AbortSignal.timeout(2000) });
    console.log(JSON.stringify(await res.json()));
  } catch (e) {
    console.log(JSON.stringify({ status: "down", url: server.url, greeting: "", error: String(e.cause?.code ?? e.message) }));
  }
}

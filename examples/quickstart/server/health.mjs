// read: print the server's health as JSON (the Command's `attributes`), or null when it is not running.
import { running } from "./lib.mjs";

const info = running();
if (!info) {
  console.log("null");
} else {
  try {
    const res = await fetch(new URL("health", info.url), { signal: AbortSignal.timeout(2000) });
    console.log(JSON.stringify(await res.json()));
  } catch (e) {
    console.log(JSON.stringify({ status: "down", url: info.url, error: String(e.cause?.code ?? e.message) }));
  }
}

// The offline quickstart: two local files, one derived from the other's output.
// Run it: npx tsx examples/quickstart/infra.ts up --yes
import { program } from "cairn";
import { local } from "cairn/local";

export default program("hello", ({ config }) => {
  const env = config.get("env") ?? "dev";
  const cfg = new local.File("config", { path: "out/config.json", content: JSON.stringify({ env }) });
  const readme = new local.File("readme", {
    path: "out/README.txt",
    content: cfg.path.apply((p) => `config lives in ${p}\n`),
  });
  return { configPath: cfg.path, size: readme.size };
});

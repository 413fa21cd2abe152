// A small site as a Cairn program: one page whose title comes from config. The service beside it (service.ts)
// embeds this program's stack in an HTTP server through the library API: no CLI, no child process.
import { program } from "cairn-iac";
import { local } from "cairn-iac/local";

export default program("site", ({ stack, config }) => {
  const title = config.get("title") ?? "Hello";
  const page = new local.File("index", {
    path: `${config.get("outDir") ?? "out"}/${stack}/index.html`,
    content: `<!doctype html><title>${title}</title><h1>${title}</h1>\n`,
  });
  return { path: page.path, sha256: page.sha256 };
});

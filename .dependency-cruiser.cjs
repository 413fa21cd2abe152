// The shape of the code, checked by `npm run lint:deps` (part of `npm test`): no import circles, and every
// import points down the layers below. See docs/design/engine.md for what each layer holds.
/** Folders of src/, lowest first: a file may import its own layer and the ones before it, never a later one. */
const LAYERS = ["core", "state", "provider", "program", "graph", "wait", "runtime", "plan", "apply", "stack", "cli", "entry"];

const layerRules = LAYERS.map((layer, i) => ({
  name: `layer-${layer}`,
  comment: `src/${layer}/ imports only ${LAYERS.slice(0, i + 1).join(", ")}`,
  severity: "error",
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${[...LAYERS.slice(i + 1), "providers", "testing", "index\\.ts"].join("|")})` },
}));

module.exports = {
  forbidden: [
    { name: "no-circular", comment: "files that import each other in a loop", severity: "error", from: {}, to: { circular: true } },
    ...layerRules,
    {
      name: "providers-at-the-edge",
      comment: "a provider builds on the provider contract and the program's surface, never on the engine",
      severity: "error",
      from: { path: "^src/providers/" },
      to: { path: `^src/(${["graph", "runtime", "plan", "apply", "stack", "cli", "entry", "testing"].join("|")})/` },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Generated service modules import only the Cloud Control runtime; leaving them out keeps the check fast.
    exclude: { path: "^src/providers/aws/services/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};

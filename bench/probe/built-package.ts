// The probes measure the package as users run it: the bundled dist/, not src/ compiled by tsx on the fly
// (tsx keeps function names by wrapping each one, which allocates per closure and skews the figures).
// Inside the repository tsconfig's `paths` send "cairn-iac" to src/; bench/probe/tsconfig.json has none, so with
// TSX_TSCONFIG_PATH pointing at it "cairn-iac" resolves to dist/ through the package's own exports.
import type { Program } from "cairn-iac";

/**
 * The bench program (bench/programs/infra.ts) on the built package; exits with a message when "cairn-iac"
 * resolves to the sources instead.
 *
 * @example const prog = await builtPackage(); await prog.stack({ stateDir }).up();
 */
export async function builtPackage(): Promise<Program> {
  if (!import.meta.resolve("cairn-iac").includes("/dist/")) {
    console.error("probe: \"cairn\" resolves to src/; run `npm run build`, then the probe with TSX_TSCONFIG_PATH=bench/probe/tsconfig.json");
    process.exit(2);
  }
  return (await import("../programs/infra.js")).default;
}

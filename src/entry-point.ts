/**
 * Wires the command line to programs run directly (`npx tsx infra.ts up`): imported by the package entry
 * (`cairn`), it registers a runner that loads the CLI only when a program file is the entry point. This keeps
 * `program` free of any dependency on the CLI, and `import "cairn"` light for library users and tests.
 *
 * @module
 */
import { setCliRunner } from "./program/program.js";

setCliRunner(async (p, argv) => (await import("./cli/run.js")).runCli(p, argv));

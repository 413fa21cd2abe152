import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { UsageError } from "../errors.js";
import { exitOnPurpose } from "../process-guard.js";

// The fake lives in cairn-iac/testing, which the command line does not import (it is a layer of its own,
// and most runs never need it): loaded by the package's own name, only when this command runs.
const TESTING = "cairn-iac/testing";

/** The part of cairn-iac/testing this command uses. */
interface Testing {
  serveFakeCloudControl(options: { port?: number; pollsToFinish?: number }): Promise<{ endpoint: string; env: Record<string, string>; stop(): Promise<void> }>;
}

/**
 * `fake-aws`: serves the fake Cloud Control (the one Cairn's tests use) on 127.0.0.1 and prints the
 * environment that points a program at it, then runs until Ctrl-C. Needs no program file; what it holds
 * lives in memory and is gone when it stops.
 *
 * @example registerFakeAws(root, ctx); // npx cairn fake-aws --port 4566
 */
export function registerFakeAws(root: Command, ctx: CliContext): void {
  root
    .command("fake-aws")
    .description("serve a fake Cloud Control on 127.0.0.1 and print the environment to point a program at it (until Ctrl-C)")
    .option("--port <port>", "the port to listen on (default: a free one)")
    .action(async (o: { port?: string }, cmd: Command) => {
      const port = o.port === undefined ? undefined : Number(o.port);
      if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) throw new UsageError(`--port ${o.port} is not a port: give a number from 1 to 65535.`, cmd);
      const { serveFakeCloudControl } = (await import(TESTING)) as Testing;
      // Requests finish when first asked about: a program's up takes as long as its own steps.
      const fake = await serveFakeCloudControl({ pollsToFinish: 0, ...(port ? { port } : {}) });
      ctx.io.out(`Fake Cloud Control listening on ${fake.endpoint} (in memory; stop it with Ctrl-C).`);
      ctx.io.out("Point a program at it, in another shell:");
      for (const [name, value] of Object.entries(fake.env)) ctx.io.out(`  export ${name}=${value}`);
      // Ctrl-C stops the fake at once, before the command line's own handler would say "Cancelling: operations
      // already running finish and are saved", which is about a deployment, not this.
      const exit = () => {
        ctx.io.out("Fake Cloud Control stopped.");
        exitOnPurpose(0); // printed lines are written on exit; the listening socket closes with the process
      };
      process.prependOnceListener("SIGINT", exit);
      process.prependOnceListener("SIGTERM", exit);
      await new Promise<void>((resolve) => (ctx.signal.aborted ? resolve() : ctx.signal.addEventListener("abort", () => resolve(), { once: true })));
      await fake.stop();
      ctx.io.out("Fake Cloud Control stopped.");
    });
}

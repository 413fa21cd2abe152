import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";
import { availableParallelism } from "node:os";

const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^cairn-iac$/, replacement: src("index.ts") },
      { find: /^cairn-iac\/local$/, replacement: src("providers/local/index.ts") },
      { find: /^cairn-iac\/testing$/, replacement: src("testing/index.ts") },
      { find: /^cairn-iac\/testing\/vitest$/, replacement: src("testing/vitest.ts") },
      { find: /^cairn-iac\/aws$/, replacement: src("providers/aws/index.ts") },
      { find: /^cairn-iac\/aws\/([a-z0-9.-]+)$/, replacement: src("providers/aws/services/$1.ts") },
    ],
  },
  test: {
    // Examples carry their own tests (infra.test.ts beside infra.ts), as users' projects do.
    include: ["tests/**/*.test.ts", "examples/**/*.test.ts"],
    // Most test time waits on child processes, servers and real clocks, not on the CPU: on a 2-core machine
    // 4 workers ran the suite in 133 s where the default (one per core) took 322 s, with the same results.
    maxWorkers: Math.max(4, availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});

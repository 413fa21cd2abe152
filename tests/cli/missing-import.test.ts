import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingImportError } from "../../src/cli/missing-import.js";

// Node's resolver errors, as Node 20 to 24 word them, told as one message at the import's line (the built CLI
// meets them in tests/e2e/user-sites.test.ts). Cairn's modules are read from this repository (`npm run build`).

const REPO = resolve(import.meta.dirname, "../..");
let dir: string;
let infra: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cairn-missing-import-"));
  infra = join(dir, "infra.ts");
  await writeFile(infra, `import { program } from "cairn-iac";\n\nimport { Bucket } from 'cairn-iac/aws/S3';\nimport { x } from "@acme/tools/x";\n`);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const nodeError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe("missingImportError", () => {
  it("a service module in the wrong case: the module meant, at the import's line and column", () => {
    const e = missingImportError(nodeError("ERR_MODULE_NOT_FOUND", `Cannot find module '${REPO}/dist/providers/aws/services/S3.js' imported from ${infra}`), dir);
    expect(e?.diagnostic.summary).toBe(`infra.ts imports "cairn-iac/aws/S3", which Cairn does not have.`);
    expect(e?.diagnostic.detail).toMatch(/^Did you mean "cairn-iac\/aws\/s3"\? \(Cairn's module names are lower case/);
    expect(String(e?.diagnostic.site)).toBe("infra.ts:3:24");
  });

  it("a subpath Cairn does not export, from a file: URL with the query a reload adds", () => {
    const e = missingImportError(nodeError("ERR_PACKAGE_PATH_NOT_EXPORTED", `Package subpath './lokal' is not defined by "exports" in ${REPO}/package.json imported from file://${infra}?tsx`), dir);
    expect(e?.diagnostic.summary).toBe(`infra.ts imports "cairn-iac/lokal", which Cairn does not have.`);
    expect(e?.diagnostic.detail).toBe(`Did you mean "cairn-iac/local"?`);
    expect(String(e?.diagnostic.site)).toBe("infra.ts");
  });

  it("a package that is not installed: its full import as written, and how to install it", () => {
    const e = missingImportError(nodeError("ERR_MODULE_NOT_FOUND", `Cannot find package '@acme/tools' imported from ${infra}`), dir);
    expect(e?.diagnostic.summary).toBe(`infra.ts imports "@acme/tools/x", which is not installed.`);
    expect(e?.diagnostic.detail).toBe("Install it (`npm install @acme/tools`), or correct the name.");
    expect(String(e?.diagnostic.site)).toBe("infra.ts:4:19");
  });

  it("leaves a missing relative file, and anything else, to Node's own message", () => {
    expect(missingImportError(nodeError("ERR_MODULE_NOT_FOUND", `Cannot find module '${dir}/lib.js' imported from ${infra}`), dir)).toBeUndefined();
    expect(missingImportError(new Error("boom"), dir)).toBeUndefined();
  });
});

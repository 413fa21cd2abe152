import { describe, expect, it } from "vitest";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { nodeCanLoad, strippingFailure } from "../../src/cli/type-stripping.js";

/** An error shaped as Node throws it while loading a module. */
function nodeError(code: string, message: string, stack = `Error [${code}]: ${message}\n    at x (node:internal/x:1:1)`): Error {
  return Object.assign(new Error(message), { code, stack });
}

describe("why Node's own type stripping could not load a program", () => {
  it("names the syntax, the file and the line that stripping cannot erase", () => {
    const stack = `${pathToFileURL("/app/lib/colors.ts").href}:7\nexport enum Color { Red }\n^^^^\n\nSyntaxError [ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX]: TypeScript enum is not supported in strip-only mode\n    at parseTypeScript (node:internal/modules/typescript:63:40)`;
    const e = nodeError("ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX", "TypeScript enum is not supported in strip-only mode", stack);

    expect(strippingFailure(e, "infra.ts", "/app")).toBe(
      'lib/colors.ts uses TypeScript syntax Node cannot strip (enum at line 7); loading infra.ts with tsx instead — use only erasable syntax (tsconfig "erasableSyntaxOnly": true) to start faster.',
    );
  });

  it('says "it" when the program file itself has the syntax', () => {
    const stack = `${pathToFileURL("/app/infra.ts").href}:3\nconstructor(private x) {}\n\nSyntaxError [ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX]: TypeScript parameter property is not supported in strip-only mode`;
    const e = nodeError("ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX", "TypeScript parameter property is not supported in strip-only mode", stack);

    expect(strippingFailure(e, "infra.ts", "/app")).toMatch(/^infra\.ts uses TypeScript syntax Node cannot strip \(parameter property at line 3\); loading it with tsx instead/);
  });

  it("names the .ts file that an import of ./x.js means", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cairn-strip-"));
    await writeFile(join(dir, "lib.ts"), "export const a = 1;\n");
    const e = nodeError("ERR_MODULE_NOT_FOUND", `Cannot find module '${join(dir, "lib.js")}' imported from ${join(dir, "infra.ts")}`);

    expect(strippingFailure(e, "infra.ts", dir)).toBe(
      'infra.ts imports lib.js, which is lib.ts: Node loads only the file an import names; loading it with tsx instead — import "./lib.ts" (tsconfig "rewriteRelativeImportExtensions": true) to start faster.',
    );
  });

  it("hands other unresolved imports of a TypeScript file to tsx, which resolves folders and tsconfig paths", () => {
    const pkg = nodeError("ERR_MODULE_NOT_FOUND", "Cannot find package '@app/shared' imported from /app/infra.ts");
    const dir = nodeError("ERR_UNSUPPORTED_DIR_IMPORT", "Directory import '/app/lib' is not supported resolving ES modules imported from /app/infra.ts");

    expect(strippingFailure(pkg, "infra.ts", "/app")).toMatch(/^infra\.ts imports @app\/shared, which Node cannot resolve by itself .*; loading it with tsx instead\.$/);
    expect(strippingFailure(dir, "infra.ts", "/app")).toMatch(/^infra\.ts imports lib, which Node cannot resolve by itself/);
  });

  it("leaves the program's own failures alone: they are reported as they are", () => {
    const fromJs = nodeError("ERR_MODULE_NOT_FOUND", "Cannot find package 'pg-native' imported from /app/node_modules/pg/lib/native/client.js");

    expect(strippingFailure(new Error("cannot read settings.json"), "infra.ts", "/app")).toBeUndefined();
    expect(strippingFailure(fromJs, "infra.ts", "/app")).toBeUndefined();
    expect(strippingFailure("a string", "infra.ts", "/app")).toBeUndefined();
  });
});

describe("which files Node loads itself", () => {
  it("never .tsx or JavaScript; .ts, .mts and .cts only where the runtime strips types", () => {
    const strips = Boolean((process.features as { typescript?: string | false }).typescript);

    expect(nodeCanLoad("/app/infra.ts")).toBe(strips);
    expect(nodeCanLoad("/app/infra.mts")).toBe(strips);
    expect(nodeCanLoad("/app/infra.tsx")).toBe(false);
    expect(nodeCanLoad("/app/infra.js")).toBe(false);
  });
});

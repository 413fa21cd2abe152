import { afterAll, describe, expect, it } from "vitest";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cairnDependency } from "../../src/cli/templates.js";
import { cairnVersion } from "../../src/cli/version.js";

const made: string[] = [];
afterAll(async () => {
  for (const d of made) await rm(d, { recursive: true, force: true });
});

/** A folder `user` into which npm installed Cairn as `spec`: returns the installed package's folder. */
async function installedAs(spec: string | undefined): Promise<{ tmp: string; packageRoot: string }> {
  const tmp = await mkdtemp(join(tmpdir(), "cairn-dep-"));
  made.push(tmp);
  const packageRoot = join(tmp, "user", "node_modules", "cairn-iac");
  await mkdir(packageRoot, { recursive: true });
  await writeFile(join(tmp, "user", "package.json"), JSON.stringify({ dependencies: spec ? { "cairn-iac": spec } : {} }));
  return { tmp, packageRoot };
}

describe("the cairn-iac dependency cairn new writes", () => {
  it("names the tarball Cairn was installed from, relative to the new project, so npm install there needs no registry", async () => {
    const { tmp, packageRoot } = await installedAs("file:../cairn-iac-0.1.0.tgz");

    expect(cairnDependency(join(tmp, "user", "my-app"), packageRoot)).toBe("file:../../cairn-iac-0.1.0.tgz");
    expect(cairnDependency(join(tmp, "elsewhere", "deep", "app"), packageRoot)).toBe("file:../../../cairn-iac-0.1.0.tgz");
  });

  it("is this Cairn's version when it came from the registry", async () => {
    const { tmp, packageRoot } = await installedAs("^0.1.0");

    expect(cairnDependency(join(tmp, "user", "my-app"), packageRoot)).toBe(`^${cairnVersion()}`);
  });

  it("is the checkout's folder when it runs from a git checkout, so npm install links it", async () => {
    const tmp = await mkdtemp(join(tmpdir(), "cairn-dep-"));
    made.push(tmp);
    await mkdir(join(tmp, "cairn", ".git"), { recursive: true });

    expect(cairnDependency(join(tmp, "apps", "my-app"), join(tmp, "cairn"))).toBe("file:../../cairn");
  });

  it("is this Cairn's version when it runs from a folder that is neither an install nor a checkout", () => {
    expect(cairnDependency("/somewhere/my-app", "/nowhere/cairn")).toBe(`^${cairnVersion()}`);
  });
});

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { asUrn, type Urn } from "../../src/core/urn.js";
import { FileBackend, type FileBackendOptions } from "../../src/state/file-backend.js";
import type { ResourceState } from "../../src/state/types.js";

const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A fresh temporary directory, removed after the test. */
export async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), "cairn-state-"));
  dirs.push(d);
  return d;
}

/** The URN of test resource `name`. */
export function urnOf(name: string): Urn {
  return asUrn(`urn:cairn:dev::proj::local:File::${name}`);
}

/** A realistic resource state. */
export function resource(name: string, extra: Partial<ResourceState> = {}): ResourceState {
  return {
    urn: urnOf(name),
    type: "local:File",
    id: `/tmp/out/${name}.txt`,
    inputs: { path: `out/${name}.txt`, content: `hello ${name}` },
    outputs: { path: `/tmp/out/${name}.txt`, size: 6 + name.length, sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
    deps: [],
    ...extra,
  };
}

/** A file backend for stack `dev` of project `proj` in `stateDir`. */
export function backendAt(stateDir: string, extra: Partial<FileBackendOptions> = {}): FileBackend {
  return new FileBackend({ stateDir, stack: "dev", project: "proj", ...extra });
}

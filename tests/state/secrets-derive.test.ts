import { describe, expect, it, vi } from "vitest";
import * as secrets from "../../src/state/secrets.js";
import { backendAt, resource, tempDir, urnOf } from "./helpers.js";

// Count key derivations: every crypter creation runs scrypt once.
vi.mock("../../src/state/secrets.js", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../../src/state/secrets.js")>();
  return { ...mod, createCrypter: vi.fn(mod.createCrypter) };
});

describe("key derivation", () => {
  it("derives the key once per stack load, not once per secret", async () => {
    const derive = vi.mocked(secrets.createCrypter);
    derive.mockClear();
    const dir = await tempDir();
    const b = backendAt(dir, { passphrase: "pw" });
    const j = b.openJournal((await b.load()).state);
    expect(derive).toHaveBeenCalledTimes(0); // nothing secret yet: no derivation at all
    const N = 2000;
    await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const name = `s${i}`;
        const op = await j.begin({ kind: "create", urn: urnOf(name), type: "local:File" });
        j.end(op, [{ kind: "upsert", resource: resource(name, { inputs: { token: `tok-${i}` }, secretKeys: ["token"] }) }]);
      }),
    );
    await j.compact();
    await j.close();
    expect(derive).toHaveBeenCalledTimes(1);

    const loaded = await backendAt(dir, { passphrase: "pw" }).load();
    expect(derive).toHaveBeenCalledTimes(2);
    expect(Object.keys(loaded.state.resources)).toHaveLength(N);
    expect(loaded.state.resources[urnOf("s1234")]!.inputs.token).toBe("tok-1234");
  });
});

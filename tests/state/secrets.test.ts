import { readFile, readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import {
  createCrypter,
  DecryptError,
  MissingPassphraseError,
  newSalt,
  type Crypter,
} from "../../src/state/secrets.js";
import { decodeMutation, decodeResource, decodeState, encodeMutation, encodeResource, encodeState, isSecretEnvelope } from "../../src/state/secret-encoding.js";
import type { StackState } from "../../src/state/types.js";
import { backendAt, resource, tempDir, urnOf } from "./helpers.js";

const FAST = { N: 1 << 10, r: 8, p: 1 }; // unit tests of the cipher need not pay for a real key derivation
const crypter: Crypter = createCrypter("correct horse", newSalt(), FAST);

describe("crypter", () => {
  it("round-trips JSON values", () => {
    for (const v of ["hunter2", 42, null, true, { nested: { list: [1, "two"] } }, ""]) {
      expect(crypter.decrypt(crypter.encrypt(v))).toEqual(v);
    }
  });

  it("uses a fresh IV per value and does not leak the plaintext", () => {
    const a = crypter.encrypt("hunter2");
    const b = crypter.encrypt("hunter2");
    expect(a).not.toBe(b);
    expect(Buffer.from(a, "base64").toString("latin1")).not.toContain("hunter2");
    expect(Buffer.from(a, "base64").length).toBe(12 + 16 + '"hunter2"'.length); // iv | tag | data
  });

  it("refuses a ciphertext made with another passphrase or salt, or tampered with", () => {
    const salt = newSalt();
    const text = createCrypter("one", salt, FAST).encrypt("x");
    expect(() => createCrypter("two", salt, FAST).decrypt(text)).toThrow(DecryptError);
    expect(() => createCrypter("one", newSalt(), FAST).decrypt(text)).toThrow(DecryptError);
    const raw = Buffer.from(text, "base64");
    raw[raw.length - 1]! ^= 1;
    expect(() => createCrypter("one", salt, FAST).decrypt(raw.toString("base64"))).toThrow(/wrong passphrase or damaged value/);
  });
});

describe("secret encoding", () => {
  const secretResource = resource("db", {
    inputs: { user: "admin", password: "hunter2" },
    outputs: { endpoint: "db.local", password: "hunter2", token: { value: "t0k" } },
    secretKeys: ["password", "token"],
    deposed: [{ id: "old", inputs: { password: "old-pw" }, outputs: {}, secretKeys: ["password"] }],
  });

  it("encrypts exactly the secret attributes of inputs, outputs and deposed objects", () => {
    const enc = encodeResource(secretResource, crypter);
    expect(enc.inputs.user).toBe("admin");
    expect(enc.outputs.endpoint).toBe("db.local");
    expect(isSecretEnvelope(enc.inputs.password)).toBe(true);
    expect(isSecretEnvelope(enc.outputs.password)).toBe(true);
    expect(isSecretEnvelope(enc.outputs.token)).toBe(true);
    expect(isSecretEnvelope(enc.deposed![0]!.inputs.password)).toBe(true);
    expect(JSON.stringify(enc)).not.toMatch(/hunter2|t0k|old-pw/);
    expect(decodeResource(enc, crypter)).toEqual(secretResource);
    expect(secretResource.inputs.password).toBe("hunter2"); // the input was not modified
  });

  it("hands back resources without secrets untouched", () => {
    const plain = resource("plain");
    expect(encodeResource(plain)).toBe(plain);
    expect(decodeResource(plain)).toBe(plain);
  });

  it("encrypts secret stack outputs and round-trips a whole state", () => {
    const state: StackState = {
      version: 1,
      project: "proj",
      stack: "dev",
      serial: 3,
      resources: { [secretResource.urn]: secretResource, [urnOf("plain")]: resource("plain") },
      outputs: { url: "http://x", adminPassword: "s3cret" },
      secretOutputs: ["adminPassword"],
    };
    const enc = encodeState(state, crypter);
    expect(enc.outputs.url).toBe("http://x");
    expect(isSecretEnvelope(enc.outputs.adminPassword)).toBe(true);
    expect(JSON.stringify(enc)).not.toMatch(/s3cret|hunter2/);
    expect(decodeState(JSON.parse(JSON.stringify(enc)) as StackState, crypter)).toEqual(state);
  });

  it("encodes mutations for the journal", () => {
    const m = encodeMutation({ kind: "outputs", outputs: { k: "v" }, secretOutputs: ["k"] }, crypter);
    expect(m).toMatchObject({ kind: "outputs", outputs: { k: { $secret: expect.any(String) } } });
    expect(decodeMutation(m, crypter)).toEqual({ kind: "outputs", outputs: { k: "v" }, secretOutputs: ["k"] });
  });

  it("without a crypter refuses to write a secret, saying how to set the passphrase", () => {
    expect(() => encodeResource(secretResource)).toThrow(MissingPassphraseError);
    expect(() => encodeResource(secretResource)).toThrow(
      "cannot store a secret without a passphrase: set CAIRN_PASSPHRASE (e.g. `export CAIRN_PASSPHRASE=...`) and run again",
    );
    expect(() => decodeResource(encodeResource(secretResource, crypter))).toThrow(/cannot read the secrets without a passphrase: set CAIRN_PASSPHRASE/);
  });

  it("leaves a plain value that merely looks like an envelope alone when its key is not secret", () => {
    const r = resource("x", { inputs: { weird: { $secret: "not really" } } });
    expect(decodeResource(r, crypter)).toBe(r);
  });
});

describe("secrets in the file backend", () => {
  const withSecret = () =>
    resource("db", { inputs: { password: "hunter2-in" }, outputs: { password: "hunter2-out" }, secretKeys: ["password"] });

  async function storeSecret(dir: string, passphrase: string | undefined) {
    const b = backendAt(dir, { passphrase });
    const j = b.openJournal((await b.load()).state);
    const op = await j.begin({ kind: "create", urn: urnOf("db"), type: "local:File" });
    j.end(op, [{ kind: "upsert", resource: withSecret() }]);
    j.mutate([{ kind: "outputs", outputs: { pw: "hunter2-output" }, secretOutputs: ["pw"] }]);
    await j.flush();
    return { b, j };
  }

  it("keeps secrets encrypted in the journal and the snapshot, and plaintext in memory", async () => {
    const dir = await tempDir();
    const { b, j } = await storeSecret(dir, "pw1");
    expect(j.state.resources[urnOf("db")]!.inputs.password).toBe("hunter2-in");
    const journalText = await readFile(b.files.journal, "utf8");
    expect(journalText).toContain('"$secret"');
    expect(journalText).not.toContain("hunter2");

    // Replay from the journal decrypts.
    const fromJournal = await backendAt(dir, { passphrase: "pw1" }).load();
    expect(fromJournal.state.resources[urnOf("db")]).toEqual(withSecret());
    expect(fromJournal.state.outputs).toEqual({ pw: "hunter2-output" });

    await j.compact();
    await j.close();
    for (const f of await readdir(b.files.dir)) {
      expect(await readFile(`${b.files.dir}/${f}`, "utf8").catch(() => "")).not.toContain("hunter2");
    }
    const enc = JSON.parse(await readFile(b.files.encryption, "utf8")) as Record<string, unknown>;
    expect(enc).toMatchObject({ version: 1, cipher: "aes-256-gcm", kdf: "scrypt", salt: expect.any(String), check: expect.any(String) });

    const loaded = await backendAt(dir, { passphrase: "pw1" }).load();
    expect(loaded.state.resources[urnOf("db")]).toEqual(withSecret());
    expect(loaded.state.secretOutputs).toEqual(["pw"]);
    expect(loaded.state.outputs.pw).toBe("hunter2-output");
  });

  it("refuses a wrong passphrase, naming the stack and the file", async () => {
    const dir = await tempDir();
    const { b, j } = await storeSecret(dir, "right");
    await j.close();
    await expect(backendAt(dir, { passphrase: "wrong" }).load()).rejects.toThrow(
      `CAIRN_PASSPHRASE does not decrypt the secrets of stack dev (${b.files.encryption})`,
    );
  });

  it("refuses to read secrets without a passphrase", async () => {
    const dir = await tempDir();
    const { j } = await storeSecret(dir, "right");
    await j.close();
    await expect(backendAt(dir).load()).rejects.toThrow(/^stack dev \(.*encryption\.json\): cannot read the secrets without a passphrase: set CAIRN_PASSPHRASE/);
  });

  it("refuses to store a secret without a passphrase, and writes nothing for it", async () => {
    const dir = await tempDir();
    const b = backendAt(dir);
    const j = b.openJournal((await b.load()).state);
    await expect(b.requirePassphrase()).rejects.toThrow(
      `stack dev (${b.files.encryption}): cannot store a secret without a passphrase: set CAIRN_PASSPHRASE (e.g. \`export CAIRN_PASSPHRASE=...\`) and run again`,
    );
    const op = await j.begin({ kind: "create", urn: urnOf("db"), type: "local:File" });
    expect(() => j.end(op, [{ kind: "upsert", resource: withSecret() }])).toThrow(/cannot store a secret without a passphrase/);
    // Nothing was applied, and the operation is still open (found as pending if the run stops now).
    expect(j.state.resources).toEqual({});
    expect(j.pending.map((p) => p.op)).toEqual([op]);
    await j.close();
    await expect(readFile(b.files.encryption)).rejects.toThrow(/ENOENT/);
    // A stack without secrets works without any passphrase.
    await expect(backendAt(dir).load()).resolves.toMatchObject({ pending: [{ op }] });
  });

  it("requirePassphrase also refuses a passphrase that is not the stack's, before anything is written", async () => {
    const dir = await tempDir();
    const { j } = await storeSecret(dir, "right");
    await j.close();
    await expect(backendAt(dir, { passphrase: "right" }).requirePassphrase()).resolves.toBeUndefined();
    await expect(backendAt(dir, { passphrase: "wrong" }).requirePassphrase()).rejects.toThrow(/CAIRN_PASSPHRASE does not decrypt the secrets of stack dev/);
  });

  it("does not create encryption.json for a stack without secrets", async () => {
    const dir = await tempDir();
    const b = backendAt(dir, { passphrase: "pw" });
    await b.compact({ ...(await b.load()).state, resources: { [urnOf("a")]: resource("a") } });
    await expect(readFile(b.files.encryption)).rejects.toThrow(/ENOENT/);
  });
});

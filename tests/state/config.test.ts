import { readFile, writeFile, mkdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { backendAt, tempDir } from "./helpers.js";

describe("stack configuration", () => {
  it("sets, reads and removes plain and secret values", async () => {
    const dir = await tempDir();
    const b = backendAt(dir, { passphrase: "pw" });
    expect(await b.readConfig()).toEqual({});
    await b.setConfig("region", "eu-west-1");
    await b.setConfig("dbPassword", "hunter2", { secret: true });
    expect(await b.readConfig()).toEqual({
      region: { value: "eu-west-1", secret: false },
      dbPassword: { value: "hunter2", secret: true },
    });

    const onDisk = JSON.parse(await readFile(b.files.config, "utf8")) as { values: Record<string, unknown> };
    expect(onDisk.values.region).toBe("eu-west-1");
    expect(onDisk.values.dbPassword).toEqual({ $secret: expect.any(String) });
    expect(await readFile(b.files.config, "utf8")).not.toContain("hunter2");

    // Another process with the same passphrase reads it back.
    expect((await backendAt(dir, { passphrase: "pw" }).readConfig()).dbPassword).toEqual({ value: "hunter2", secret: true });

    expect(await b.removeConfig("dbPassword")).toBe(true);
    expect(await b.removeConfig("dbPassword")).toBe(false);
    expect(await b.readConfig()).toEqual({ region: { value: "eu-west-1", secret: false } });
  });

  it("overwrites a value, switching it between plain and secret", async () => {
    const b = backendAt(await tempDir(), { passphrase: "pw" });
    await b.setConfig("token", "abc", { secret: true });
    await b.setConfig("token", "plain-now");
    expect(await b.readConfig()).toEqual({ token: { value: "plain-now", secret: false } });
  });

  it("needs the passphrase for secret values only", async () => {
    const dir = await tempDir();
    const noPass = backendAt(dir);
    await noPass.setConfig("region", "eu-west-1");
    await expect(noPass.setConfig("token", "abc", { secret: true })).rejects.toThrow(
      "cannot store a secret without a passphrase: set CAIRN_PASSPHRASE (e.g. `export CAIRN_PASSPHRASE=...`) and run again",
    );
    expect(await noPass.readConfig()).toEqual({ region: { value: "eu-west-1", secret: false } });

    await backendAt(dir, { passphrase: "right" }).setConfig("token", "abc", { secret: true });
    await expect(backendAt(dir).readConfig()).rejects.toThrow(/stack dev .*: cannot read the secrets without a passphrase/);
    await expect(backendAt(dir, { passphrase: "wrong" }).readConfig()).rejects.toThrow(/CAIRN_PASSPHRASE does not decrypt the secrets of stack dev \(.*encryption\.json\)/);
    await expect(backendAt(dir, { passphrase: "wrong" }).setConfig("other", "x", { secret: true })).rejects.toThrow(/does not decrypt the secrets/);
  });

  it("refuses a damaged config.json, naming it, without rewriting it", async () => {
    const b = backendAt(await tempDir());
    await mkdir(b.files.dir, { recursive: true });
    await writeFile(b.files.config, '{ "values": { "a": 1 } }');
    await expect(b.readConfig()).rejects.toThrow(/config\.json is not a valid Cairn config file \(values\.a: .*\): expected \{ "values"/);
    await expect(b.setConfig("b", "x")).rejects.toThrow(/not a valid Cairn config file/);
    expect(await readFile(b.files.config, "utf8")).toBe('{ "values": { "a": 1 } }');
  });
});

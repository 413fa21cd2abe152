// The embedded service, end to end over HTTP on 127.0.0.1: preview, config, up (streamed events), outputs.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import site from "./infra.ts";
import { createService } from "./service.ts";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** The service on a free port of 127.0.0.1, with state in a private memory space and the page in a temp dir. */
async function service() {
  const outDir = await mkdtemp(join(tmpdir(), "cairn-site-"));
  const server: Server = createService(site, { stack: "t", backend: `memory://site-${Math.random().toString(36).slice(2)}` });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanup.push(() => rm(outDir, { recursive: true, force: true }), () => new Promise((r) => server.close(() => r())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (method: string, path: string, body?: string) => {
    const res = await fetch(base + path, { method, ...(body !== undefined ? { body } : {}) });
    return { status: res.status, text: await res.text() };
  };
  await call("PUT", "/config/outDir", outDir);
  return { call, outDir };
}

describe("examples/embedded-service: a stack inside an HTTP service, through the library API", () => {
  it("previews, applies with streamed events, reports outputs, and previews a config change as an update", async () => {
    const { call, outDir } = await service();

    const before = JSON.parse((await call("GET", "/preview")).text);
    expect(before).toMatchObject({ hasChanges: true, changes: ["create index"] });

    const up = await call("POST", "/up");
    const events = up.text.trim().split("\n").map((l) => JSON.parse(l) as { type: string; summary?: { ok: boolean } });
    expect(events.map((e) => e.type)).toEqual(["step-started", "step-succeeded", "summary", "outputs"]);
    expect(events.find((e) => e.type === "summary")?.summary?.ok).toBe(true);
    expect(await readFile(join(outDir, "t/index.html"), "utf8")).toContain("<h1>Hello</h1>");

    const outputs = JSON.parse((await call("GET", "/outputs")).text);
    expect(outputs).toMatchObject({ path: `${outDir}/t/index.html` });

    await call("PUT", "/config/title", "Welcome");
    expect(JSON.parse((await call("GET", "/preview")).text)).toMatchObject({ hasChanges: true, changes: ["update index"] });
  });

  it("answers an unknown route with 404, and an error of the library with 500 and its message", async () => {
    const { call } = await service();

    expect(await call("GET", "/nope")).toMatchObject({ status: 404 });
    const bad = await call("PUT", "/config/constructor", "x");
    expect(bad.status).toBe(500);
    expect(JSON.parse(bad.text).error).toContain("constructor");
  });
});

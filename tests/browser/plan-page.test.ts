import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { programIn, run } from "../cli/harness.js";
import { DERIVED, graphProgram, SECRET } from "../cli/graph-fixture.js";
import { LOOKS } from "../../src/cli/render/graph/looks.js";
import type { Look } from "../../src/plan/picture/model.js";
import { launchChromium, offlinePage, type PageGlobals } from "./chromium.js";

let browser: Browser;
const pages: { first: string; changes: string; saved: string } = { first: "", changes: "", saved: "" };

/** `#rrggbb` as the browser computes it, `rgb(r, g, b)`. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;

beforeAll(async () => {
  browser = await launchChromium();
  // GIVEN the fixture's first plan (creates, a wait, a secret and a value derived from it), applied; then
  // its second (an update, both orders of replace, a delete), as preview writes it and as a saved plan.
  const { prog, dir } = await programIn("site", graphProgram);
  pages.first = join(dir, "first.html");
  pages.changes = join(dir, "changes.html");
  pages.saved = join(dir, "saved.html");
  expect((await run(prog, ["preview", "--html", pages.first])).code).toBe(0);
  expect((await run(prog, ["up", "--yes"])).code).toBe(0);
  await run(prog, ["config", "set", "round", "2"]);
  const planFile = join(dir, "plan.json");
  expect((await run(prog, ["preview", "--html", pages.changes, "--out", planFile])).code).toBe(0);
  expect((await run(prog, ["graph", "--plan", planFile, "--html", pages.saved])).code).toBe(0);
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** The page at `file`, loaded offline in `scheme`, with the requests it made. */
async function open(file: string, scheme: "light" | "dark" = "light") {
  const opened = await offlinePage(browser, scheme);
  await opened.page.goto(pathToFileURL(file).href);
  return opened;
}

/** The fill of the first node drawn in `look`, as the browser paints it. */
async function fillOf(page: Awaited<ReturnType<typeof open>>["page"], look: Look): Promise<string> {
  return page.locator(`.picture .node.look-${look} path, .picture .node.look-${look} polygon`).first().evaluate((e) => (globalThis as unknown as PageGlobals).getComputedStyle(e).fill);
}

describe("the plan page, in Chromium", () => {
  it("draws a node for every change, in its step kind's colour and shape", async () => {
    const { page } = await open(pages.changes);
    const drawn = async (look: Look) => page.locator(`.picture .node.look-${look} title`).allTextContents();
    expect(await drawn("update")).toEqual(["urn:cairn:dev::site::acme:Site$local:File::www-index"]);
    expect(await drawn("replace-create-first")).toEqual(["urn:cairn:dev::site::local:File::moved"]);
    expect(await drawn("replace-delete-first")).toEqual(["urn:cairn:dev::site::local:File::swapped"]);
    expect(await drawn("delete")).toEqual(["urn:cairn:dev::site::local:File::gone"]);
    for (const look of ["update", "replace-create-first", "replace-delete-first", "delete"] as const) expect(await fillOf(page, look), look).toBe(rgb(LOOKS[look].light.fill));
    await page.close();
  });

  it("draws the wait as a hexagon with its predicate, gating the file that reads it, and the component as a cluster", async () => {
    const { page } = await open(pages.first);
    const wait = page.locator(".picture .node.look-wait");
    expect(await wait.locator("polygon").count()).toBe(1);
    expect(await wait.textContent()).toContain('until svc.attributes.status == "ready"');
    expect(await wait.textContent()).toContain("timeout 30s");
    expect(await page.locator(".picture .edge.edge-gate title").allTextContents()).toEqual(["urn:cairn:dev::site::cairn:wait::ready->urn:cairn:dev::site::local:File::note"]);
    expect(await page.locator(".picture .cluster").textContent()).toContain("www (acme:Site)");
    expect(await page.locator(".picture .node.look-create").count()).toBe(8);
    expect(await fillOf(page, "wait")).toBe(rgb(LOOKS.wait.light.fill));
    await page.close();
  });

  it("shows the waits' predicates and timeouts in their table, and the summary's count line", async () => {
    const { page } = await open(pages.first);
    expect(await page.locator("#waits tbody tr").innerText()).toMatch(/ready\s+svc\s+svc\.attributes\.status == "ready"\s+30s/);
    expect(await page.locator("#summary").innerText()).toContain("Plan: 8 to create, 1 wait.");
    await page.close();
  });

  it("never shows a secret or a value derived from one, in its text or its source; masks them as the terminal does", async () => {
    for (const file of [pages.first, pages.changes, pages.saved]) {
      const { page } = await open(file);
      for (const step of await page.locator(".step").all()) await step.evaluate((d) => ((d as unknown as { open: boolean }).open = true));
      const text = await page.locator("body").innerText();
      const source = await page.content();
      for (const s of [SECRET, DERIVED]) {
        expect(text, file).not.toContain(s);
        expect(source, file).not.toContain(s);
        expect(readFileSync(file, "utf8"), file).not.toContain(s);
      }
      if (file === pages.first) expect(text).toContain("content: [secret]");
      await page.close();
    }
  });

  it("makes no request but for the page itself (works offline)", async () => {
    for (const file of [pages.first, pages.changes]) {
      const { page, requests, refused, blocked } = await open(file);
      await page.locator(".picture .node").first().click();
      await page.emulateMedia({ media: "print", colorScheme: "dark" });
      expect(requests).toEqual([pathToFileURL(file).href]);
      expect(refused).toEqual([]);
      expect(await blocked()).toEqual([]);
      // Nothing in it points anywhere but inside the page.
      expect(await page.evaluate(() => [...Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll("[src],[href]"))].map((e) => e.getAttribute("src") ?? e.getAttribute("href")))).toEqual([]);
      await page.close();
    }
  });

  it("reads in dark mode: nodes and badges take the dark colours", async () => {
    const { page } = await open(pages.changes, "dark");
    expect(await fillOf(page, "update")).toBe(rgb(LOOKS.update.dark.fill));
    expect(await page.locator("body").evaluate((b) => (globalThis as unknown as PageGlobals).getComputedStyle(b).backgroundColor)).toBe("rgb(11, 17, 32)");
    await page.close();
  });

  it("prints without its controls, the graph whole, and every step open with its diff", async () => {
    const { page } = await open(pages.changes);
    await page.emulateMedia({ media: "print" });
    expect(await page.locator("#search").isVisible()).toBe(false);
    expect(await page.locator(".picture").evaluate((e) => (globalThis as unknown as PageGlobals).getComputedStyle(e).maxHeight)).toBe("none");
    await page.evaluate(() => (globalThis as unknown as PageGlobals).dispatchEvent(new (globalThis as unknown as PageGlobals).Event("beforeprint")));
    expect(await page.locator("details.step:not([open])").count()).toBe(0);
    expect(await page.locator("#steps").innerText()).toContain('path: "out/a.txt" → "out/b.txt" (forces replacement)');
    await page.close();
  });

  it("opens a node's step when the node is clicked", async () => {
    const { page } = await open(pages.changes);
    await page.locator(".picture .node.look-delete").click();
    const step = page.locator('details.step[data-urn="urn:cairn:dev::site::local:File::gone"]');
    expect(await step.getAttribute("open")).toBe("");
    expect(await step.innerText()).toContain("no longer in the program");
    await page.close();
  });

  it("from a saved plan, lists the same steps as preview's page", async () => {
    const steps = async (file: string) => {
      const { page } = await open(file);
      const lines = await page.locator(".step summary code").allTextContents();
      await page.close();
      return lines;
    };
    expect(await steps(pages.saved)).toEqual(await steps(pages.changes));
  });
});

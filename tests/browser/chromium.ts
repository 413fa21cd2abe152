import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";

/** Debian's chromium (no browser download); CHROMIUM_PATH names another. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Headless Chromium, or an error saying how to install it: browser tests never skip.
 * @example const browser = await launchChromium();
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser tests need Chromium at ${CHROMIUM}: install Debian's chromium package (apt-get install --no-install-recommends chromium; .ci/run does), or set CHROMIUM_PATH.`);
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
}

/**
 * The page's globals the tests read inside `evaluate` callbacks (the project compiles without the DOM
 * library; the callbacks run in the page, so only the type is shared).
 */
export interface PageGlobals {
  document: { addEventListener(type: "securitypolicyviolation", f: (e: { blockedURI: string; violatedDirective: string }) => void): void; querySelectorAll(s: string): ArrayLike<{ getAttribute(a: string): string | null }> };
  getComputedStyle(e: unknown): { fill: string; backgroundColor: string; maxHeight: string };
  dispatchEvent(e: unknown): void;
  Event: new (type: string) => unknown;
  blockedUris: string[];
}

/**
 * A page that records every request it makes, refuses (and records) all but `file:` URLs, and records what
 * the page's content security policy blocked before it became a request (`blocked()`).
 */
export async function offlinePage(browser: Browser, colorScheme: "light" | "dark" = "light"): Promise<{ page: Page; requests: string[]; refused: string[]; blocked: () => Promise<string[]> }> {
  const context = await browser.newContext({ colorScheme });
  const requests: string[] = [];
  const refused: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("file:")) return route.continue();
    refused.push(url);
    return route.abort();
  });
  await context.addInitScript(() => {
    const w = globalThis as unknown as PageGlobals;
    const seen: string[] = (w.blockedUris = []);
    w.document.addEventListener("securitypolicyviolation", (e) => seen.push(e.blockedURI || e.violatedDirective));
  });
  const page = await context.newPage();
  page.on("request", (r) => void requests.push(r.url()));
  return { page, requests, refused, blocked: () => page.evaluate(() => (globalThis as unknown as PageGlobals).blockedUris) };
}

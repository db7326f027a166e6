// Headless Chromium driven by playwright-core, for the console's browser tests
// and its benchmark: Debian's Chromium when present (CHROMIUM_PATH overrides),
// otherwise the binary shipped inside the npm package @sparticuz/chromium.
// Nothing is downloaded at run time.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** The whole browser (Lighthouse audits it as users run it): Debian's /usr/bin/chromium, or the npm package's. */
export async function chromiumPath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  const { default: sparticuz } = await import('@sparticuz/chromium');
  return sparticuz.executablePath();
}

/**
 * The binary pages are driven in: Debian's headless shell (package chromium-headless-shell, the same
 * Chromium build as /usr/bin/chromium), which Playwright itself picks for headless runs, when installed;
 * else /usr/bin/chromium. The whole browser in headless mode builds a browser window per context (its
 * tab strip, and a renderer of its own for the address bar's WebUI popup, loading some 370 modules):
 * the browser test project took 509 s of the machine's CPU and 262 s with it, 380 s and 198 s with the
 * shell (2026-12-02, docs/testing.md).
 */
async function pageChromiumPath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync('/usr/bin/chromium-headless-shell')) return '/usr/bin/chromium-headless-shell';
  return chromiumPath();
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: await pageChromiumPath(), headless: true, args: CHROMIUM_FLAGS });
}

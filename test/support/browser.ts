// The console's browser tests: Chromium from scripts/lib/chromium.ts, sign-in,
// and the axe-core check of a screen.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../scripts/lib/chromium.js';
import type { TestService } from './service.js';

let shared: Promise<Browser> | undefined;

/**
 * Chromium for a test file. The files of a worker run one after another and share its modules, so they
 * share one browser too: each launch cost about a second of CPU. The file's handle closes only the
 * contexts the file opened (its pages, cookies and storage); the browser goes with the worker's process.
 */
export async function launchBrowser(): Promise<Browser> {
  shared ??= launchChromium().then((browser) => {
    browser.on('disconnected', () => (shared = undefined));
    return browser;
  });
  const browser = await shared;
  const closeContexts = async () => {
    for (const context of browser.contexts()) await context.close();
  };
  return new Proxy(browser, {
    get: (target, name) => (name === 'close' ? closeContexts : Reflect.get(target, name)),
  });
}

/** A page in a fresh browser context (its own cookies: signed out). */
export async function newPage(browser: Browser): Promise<Page> {
  // bypassCSP: the tests inject axe-core, which the console's Content-Security-Policy would refuse.
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
  return context.newPage();
}

/** Opens the console and signs in. */
export async function signIn(
  browser: Browser,
  service: TestService,
  account: { email: string; password: string },
): Promise<Page> {
  const page = await newPage(browser);
  await page.goto(service.url + '/');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
  return page;
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The serious and critical axe-core violations of the page as it is. */
export async function axeViolations(target: Page): Promise<string[]> {
  // A page that stayed (no navigation since the last check) still has axe: inject it once.
  if (!(await target.evaluate(() => 'axe' in window))) await target.addScriptTag({ content: AXE });
  // Only violations are read: axe then skips building the selectors and nodes of every passing
  // check (axe-core's resultTypes option). The design test's twenty checks: 39 s → 30 s alone.
  const result = await target.evaluate(async () =>
    (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: { resultTypes: string[] },
          ): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe.run(document, { resultTypes: ['violations'] }),
  );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
}

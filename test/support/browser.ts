// Headless Chromium for the console's browser tests, driven by playwright-core:
// Debian's /usr/bin/chromium when present, otherwise the binary shipped in the
// npm package @sparticuz/chromium (nothing is downloaded at run time).
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { TestService } from './service.js';

export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export async function chromiumPath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  const { default: sparticuz } = await import('@sparticuz/chromium');
  return sparticuz.executablePath();
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumPath(), headless: true, args: CHROMIUM_FLAGS });
}

/** Opens the console and signs in. */
export async function signIn(browser: Browser, service: TestService, account: { email: string; password: string }): Promise<Page> {
  // bypassCSP: the tests inject axe-core, which the console's Content-Security-Policy would refuse.
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(service.url + '/');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
  return page;
}

// The console's browser tests: Chromium from scripts/lib/chromium.ts, and sign-in.
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../scripts/lib/chromium.js';
import type { TestService } from './service.js';

export const launchBrowser = launchChromium;

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

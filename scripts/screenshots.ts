// Regenerates the console's screenshots in docs/ (the README shows them):
//   npm run screenshots
// Starts the service on a temporary embedded database, fills a demo project
// through the REST API, and photographs the dashboard, the editor, the import
// preview, hosting, the activity log and the project settings in headless
// Chromium (scripts/lib/chromium.ts): each at 1440 px wide in the light and the
// dark theme (console-<screen>.png, console-<screen>-dark.png) and on a
// 390 px phone (console-<screen>-390.png, console-<screen>-390-dark.png).
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launchChromium } from './lib/chromium.js';
import { startDemoService } from './lib/demo-service.js';

const docs = resolve(import.meta.dirname, '..', 'docs');
const email = 'translator@example.com';
const password = 'screenshots-password';
// The addresses the screens show (CDN base URL, links) are those of a service on its default port, not
// the free port this one listens on ("http://localhost:0/cdn" otherwise).
const { url, dataDir, token, rest, close } = await startDemoService(
  'screenshots',
  { email, password },
  { PUBLIC_URL: 'http://localhost:8080' },
);
const browser = await launchChromium();
try {
  const shop = await rest('POST', '/api/v2/projects', { name: 'Web shop' }, { authorization: token });
  await rest('POST', '/api/v2/projects', { name: 'Mobile app' }, { authorization: token });
  const key = { 'x-service-token': shop.apiKey };
  for (const [k, name] of [
    ['de', 'German'],
    ['fr', 'French'],
    ['pl', 'Polish'],
  ])
    await rest('POST', '/api/v1/languages', { key: k, name }, key);
  const texts: Record<string, [string, string, string, string]> = {
    'cart.title': ['Your cart', 'Ihr Warenkorb', 'Votre panier', 'Twój koszyk'],
    'cart.items': [
      '{count, plural, one {# item} other {# items}}',
      '{count, plural, one {# Artikel} other {# Artikel}}',
      '{count, plural, one {# article} other {# articles}}',
      '',
    ],
    'cart.checkout': ['Checkout', 'Zur Kasse', 'Paiement', 'Do kasy'],
    'cart.empty': ['Your cart is empty', 'Ihr Warenkorb ist leer', '', ''],
    'home.greeting': ['Hello {name}!', 'Hallo {name}!', 'Bonjour !', 'Cześć {name}!'],
    'home.sale': ['<b>{percent}%</b> off today', '<b>{percent} %</b> Rabatt heute', '', ''],
    'nav.account': ['Account', 'Konto', 'Compte', 'Konto'],
    'nav.orders': ['Orders', 'Bestellungen', 'Commandes', 'Zamówienia'],
    'product.add': ['Add to cart', 'In den Warenkorb', 'Ajouter au panier', 'Dodaj do koszyka'],
    'product.stock': ['Only %d left', 'Nur noch %d', 'Plus que %d', ''],
  };
  const content = Object.entries(texts).flatMap(([k, values]) =>
    ['en', 'de', 'fr', 'pl'].map((language, i) => ({ key: k, language, text: values[i] })).filter((c) => c.text),
  );
  await rest('POST', '/api/v1/translations', { content }, key);
  await rest(
    'PATCH',
    '/api/v1/translation-keys?key=home.greeting',
    { description: 'Shown on the home page', tags: ['home'] },
    key,
  );
  await rest('PATCH', '/api/v1/translation-keys?key=cart.checkout', { charactersLimit: 12, lock: true }, key);

  const page = await (
    await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 })
  ).newPage();
  const written: string[] = [];
  /** The page as it is, in the four variants; back to light at 1440 after. */
  const shoot = async (name: string, height = 900) => {
    const variants = [
      ['', 1440, height, 'light'],
      ['-dark', 1440, height, 'dark'],
      ['-390', 390, 844, 'light'],
      ['-390-dark', 390, 844, 'dark'],
    ] as const;
    for (const [suffix, width, h, colorScheme] of variants) {
      await page.setViewportSize({ width, height: h });
      await page.emulateMedia({ colorScheme });
      // The virtualized grid measures itself after a resize.
      await page.waitForTimeout(200);
      const file = `console-${name}${suffix}.png`;
      await page.screenshot({ path: join(docs, file) });
      written.push(file);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  };
  await page.goto(url + '/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Web shop' }).waitFor();
  await shoot('dashboard');
  await page.getByRole('link', { name: 'Web shop' }).click();
  await page.getByRole('gridcell', { name: /^home.greeting in fr:/ }).click();
  await page.getByRole('textbox', { name: 'Translation of home.greeting in fr' }).fill('Bonjour {nom} !');
  await shoot('editor');
  await page.keyboard.press('Enter');
  await page.getByRole('gridcell', { name: /^home.greeting in fr: Bonjour \{nom\} !/ }).waitFor();

  // Import: a file with one new key and one changed text, previewed.
  const file = join(dataDir, 'de.json');
  writeFileSync(file, JSON.stringify({ 'cart.title': 'Dein Warenkorb', 'cart.saved': 'Für später gemerkt' }, null, 2));
  const project = `${url}/#/projects/${encodeURIComponent(shop.projectToken)}`;
  await page.goto(`${project}/import`);
  await page.getByLabel('Choose files to import').setInputFiles(file);
  await page.getByRole('checkbox', { name: 'Replace existing translations' }).check();
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await page.getByRole('heading', { name: 'What the import will change' }).waitFor();
  // Tall enough for the options, the file and its preview.
  await shoot('import', 1000);
  await page.getByRole('button', { name: 'Apply import' }).click();
  await page
    .getByText(/imported/i)
    .first()
    .waitFor();

  // Hosting: _latest published.
  await page.goto(`${project}/hosting`);
  const latest = page.getByRole('listitem', { name: 'Latest (_latest)' });
  await latest.getByRole('button', { name: 'Publish _latest' }).click();
  await latest.getByRole('status').filter({ hasText: 'Published _latest' }).waitFor();
  await shoot('hosting');

  // The activity log: the edit, the import and the publication.
  await page.goto(`${project}/activity`);
  await page.getByRole('heading', { name: 'Activity of Web shop' }).waitFor();
  await page.locator('li.entry').filter({ hasText: 'Published _latest' }).first().waitFor();
  await shoot('activity');

  await page.goto(`${project}/settings`);
  await page.getByRole('heading', { name: 'Project settings' }).waitFor();
  await shoot('settings');
  console.log(`wrote ${written.join(', ')} in ${docs}`);
} finally {
  await browser.close();
  await close();
}

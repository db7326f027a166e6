// A small i18next application for the in-context editor's browser tests
// (test/browser/in-context.test.ts), built with Vite. Its three lines of
// set-up are the ones docs/in-context.md shows; the token comes from the
// build's environment, so a build without it carries no editor.
import i18next from 'i18next';
import { inContext } from '@localization-service/i18next-incontext';

const resources = {
  de: {
    translation: {
      title: 'Statistik',
      intro: 'Die wichtigsten Zahlen des Monats.',
      greeting: 'Hallo {{name}}',
      search: 'Länder suchen',
    },
    common: { save: 'Speichern' },
  },
};

await i18next
  .use(inContext({ url: import.meta.env.VITE_SERVICE_URL, token: import.meta.env.VITE_INCONTEXT_TOKEN }))
  .init({ lng: 'de', ns: ['translation', 'common'], defaultNS: 'translation', resources });

function render() {
  const t = i18next.t;
  document.getElementById('title')!.textContent = t('title');
  document.getElementById('intro')!.textContent = t('intro');
  document.getElementById('greeting')!.textContent = t('greeting', { name: 'Ada' });
  document.getElementById('save')!.textContent = t('common:save');
  document.getElementById('search')!.setAttribute('placeholder', t('search'));
  document.body.dataset.rendered = String(Number(document.body.dataset.rendered ?? 0) + 1);
}

i18next.on('languageChanged', render);
render();

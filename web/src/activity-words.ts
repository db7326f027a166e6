// The activity log in words: each entry as one sentence ("Imported en.json:
// 230 keys created, 12 texts updated, 3 refused (locked)") from its kind and
// the details the service records, and those details as labelled values a
// person reads (no field names, no null, no empty lists, no JSON).
import { count } from './wording';
import { formatNumber, i18n } from './i18n';
import { wordJobMessage } from './server-text';

const t = i18n.t;

export interface EntryLike {
  kind: string;
  cellsChanged: number;
  edits: number;
  details: unknown;
  revertOf?: string | null;
}

type Details = Record<string, unknown>;

const num = (value: unknown): number => (typeof value === 'number' ? value : 0);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const list = (value: unknown): string[] =>
  Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : keyName(v))).filter(Boolean) : [];
/** "ns:key" or "key" from { key, namespace }. */
function keyName(value: unknown): string {
  if (typeof value !== 'object' || value === null) return '';
  const { key, namespace } = value as { key?: unknown; namespace?: unknown };
  return `${str(namespace) ? `${str(namespace)}:` : ''}${str(key)}`;
}
/** "a, b and 3 more" for a long list. */
function some(items: string[], total = items.length, shown = 5): string {
  const head = items.slice(0, shown).join(', ');
  return total > shown ? t('activityWords.andMore', { head, count: total - shown }) : head;
}

const REFUSAL_REASONS = ['LOCKED', 'CHARACTERS_LIMIT', 'CHARACTER_LIMIT', 'LANGUAGE', 'PERMISSION'] as const;
const refusalWords = (reason: string) =>
  (REFUSAL_REASONS as readonly string[]).includes(reason)
    ? t(`activityWords.refusal.${reason as (typeof REFUSAL_REASONS)[number]}`)
    : reason.toLowerCase().replace(/_/g, ' ');

/** "3 refused (locked)", "4 refused (3 locked, 1 over the characters limit)": a count or counts by reason. */
function refused(value: unknown): string {
  if (typeof value === 'number') return value ? t('activityWords.refused', { count: value }) : '';
  if (typeof value !== 'object' || value === null) return '';
  const reasons = Object.entries(value as Record<string, unknown>).filter(([, n]) => num(n) > 0);
  const total = reasons.reduce((sum, [, n]) => sum + num(n), 0);
  if (!total) return '';
  return t('activityWords.refusedWhy', {
    count: total,
    why:
      reasons.length === 1
        ? refusalWords(reasons[0]![0])
        : reasons.map(([r, n]) => `${formatNumber(num(n))} ${refusalWords(r)}`).join(', '),
  });
}

const parts = (...items: (string | number | false | null | undefined)[]) => items.filter(Boolean).join(', ');

function importSentence(d: Details): string {
  const glossary = d.glossary as Details | undefined;
  if (glossary)
    return str(glossary.fileName)
      ? t('activityWords.importedGlossaryFrom', { file: str(glossary.fileName) })
      : t('activityWords.importedGlossary');
  const what = parts(
    num(d.keysCreated) && t('activityWords.created', { what: count(num(d.keysCreated), 'key') }),
    num(d.translationsInserted) && t('activityWords.added', { what: count(num(d.translationsInserted), 'text') }),
    num(d.translationsUpdated) && t('activityWords.updated', { what: count(num(d.translationsUpdated), 'text') }),
    refused(d.translationsRefused),
    num(d.keysDeleted) && t('activityWords.deleted', { what: count(num(d.keysDeleted), 'key') }),
    list(d.languagesCreated).length > 0 &&
      t('activityWords.languagesAdded', { languages: list(d.languagesCreated).join(', ') }),
  );
  return t('activityWords.imported', {
    file: str(d.fileName) || t('activityWords.aFile'),
    what: what || t('activityWords.nothingChanged'),
  });
}

function keysSentence(d: Details, e: EntryLike): string {
  const key = keyName(d);
  switch (d.action) {
    case 'CREATE_KEY':
      return t('activityWords.createdKey', { key });
    case 'CHANGE_KEY':
      return list(d.fields).length
        ? t('activityWords.changedKeyFields', {
            key,
            fields: list(d.fields)
              .map((f) => fieldLabel(f).toLowerCase())
              .join(', '),
          })
        : t('activityWords.changedKey', { key });
    case 'DELETE_KEY': {
      const n = num(d.count) || list(d.keys).length;
      return list(d.keys).length
        ? t('activityWords.deletedKeysNamed', { what: count(n, 'key'), keys: some(list(d.keys), n) })
        : t('activityWords.deletedKeys', { what: count(n, 'key') });
    }
  }
  return t('activityWords.changedKeys', { what: count(e.edits || 1, 'key') });
}

function languagesSentence(d: Details): string {
  const language = str(d.name) ? `${str(d.name)} (${str(d.language)})` : str(d.language);
  switch (d.action) {
    case 'CREATE_LANGUAGE':
      return t('activityWords.addedLanguage', { language });
    case 'DELETE_LANGUAGE':
      return t('activityWords.deletedLanguage', { language });
    case 'REORDER_LANGUAGES':
      return t('activityWords.reorderedLanguages', { languages: list(d.languages).join(', ') });
  }
  return t('activityWords.changedLanguage', { language }).trim();
}

function customersSentence(d: Details): string {
  const customer = str(d.customer) || str(d.key);
  switch (d.action) {
    case 'CREATE_CUSTOMER':
      return t('activityWords.addedCustomer', { customer });
    case 'DELETE_CUSTOMER':
      return t('activityWords.deletedCustomer', { customer });
  }
  return t('activityWords.changedCustomer', { customer }).trim();
}

function settingsSentence(d: Details): string {
  switch (d.action) {
    case 'RENAME_PROJECT':
      return t('activityWords.renamedProject', { from: str(d.from), to: str(d.to) });
    case 'ROTATE_API_KEY':
      return t('activityWords.rotatedApiKey');
  }
  if (str(d.environment)) return t('activityWords.changedEnvironment', { environment: str(d.environment) });
  if (list(d.settings).length)
    return t('activityWords.changedSettingsNamed', { settings: list(d.settings).map(fieldLabel).join(', ') });
  if (d.glossary) return t('activityWords.changedGlossary');
  return t('activityWords.changedSettings');
}

/** The entry as one sentence. */
export function sentenceOf(e: EntryLike): string {
  const d = (typeof e.details === 'object' && e.details !== null ? e.details : {}) as Details;
  const jobId = num(d.jobId) ? ` (#${num(d.jobId)})` : '';
  switch (e.kind) {
    case 'IMPORT':
      return importSentence(d);
    case 'TRANSLATIONS':
      return e.edits
        ? t('activityWords.wroteWithEdits', { texts: count(e.cellsChanged, 'text'), edits: count(e.edits, 'edit') })
        : t('activityWords.wrote', { texts: count(e.cellsChanged, 'text') });
    case 'KEYS':
      return keysSentence(d, e);
    case 'LANGUAGES':
      return languagesSentence(d);
    case 'CUSTOMERS':
      return customersSentence(d);
    case 'PUBLICATION': {
      const what = str(d.environment) || t('activityWords.theTranslations');
      return num(d.numberOfKeys)
        ? t('activityWords.publishedCounts', {
            what,
            keys: count(num(d.numberOfKeys), 'key'),
            languages: count(num(d.numberOfLanguages), 'language'),
          })
        : t('activityWords.published', { what });
    }
    case 'EXPORT':
      return `${
        str(d.downloadFormat)
          ? t('activityWords.exportedAs', { files: count(num(d.files), 'file'), format: str(d.downloadFormat) })
          : t('activityWords.exported', { files: count(num(d.files), 'file') })
      }${list(d.languages).length ? ` (${list(d.languages).join(', ')})` : ''}`;
    case 'REVERT':
      return e.revertOf
        ? t('activityWords.revertedEntry', { id: e.revertOf, texts: count(e.cellsChanged, 'text') })
        : t('activityWords.setBack', { texts: count(e.cellsChanged || 1, 'text') });
    case 'AUTO_TRANSLATION':
      return t('activityWords.autoTranslated', { texts: count(e.cellsChanged, 'text') });
    case 'JOB_STARTED':
      return t('activityWords.jobStarted', { job: jobId });
    case 'JOB_FINISHED':
      return t('activityWords.jobFinished', { job: jobId });
    case 'PURGE':
      return e.cellsChanged
        ? t('activityWords.purgedTexts', { texts: count(e.cellsChanged, 'text') })
        : t('activityWords.purged');
    case 'QUALITY':
      return t('activityWords.quality');
    case 'AUTOMATION':
      return e.cellsChanged
        ? t('activityWords.automationWrote', { texts: count(e.cellsChanged, 'text') })
        : t('activityWords.automationRan');
    case 'SETTINGS':
      return settingsSentence(d);
  }
  return humanize(e.kind);
}

/** "keysCreated" → "Keys created", "UPLOAD_FORMAT" → "Upload format". */
export function humanize(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A detail's (or setting's) name for people: the console's words for the known ones, else the name humanized. */
export function fieldLabel(name: string): string {
  const key = `activityWords.field.${name}`;
  return i18n.exists(key) ? t(key as 'activityWords.field.fileName') : humanize(name);
}

/** A detail's value in words; '' for nothing to say (null, empty lists, all-zero counts). */
export function valueInWords(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'boolean') return value ? t('common.yes') : t('common.no');
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return some(value.map(valueInWords).filter(Boolean), value.length, 10);
  const key = keyName(value);
  if (key) return key;
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => [fieldLabel(k).toLowerCase(), valueInWords(v)] as const)
    .filter(([, v]) => v && v !== '0')
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

/** The details worth showing, as [label, words]. */
export function detailsInWords(details: unknown): [string, string][] {
  if (typeof details !== 'object' || details === null) return [];
  const d = details as Details;
  // A job's message comes with its parts as data (messageText): worded in the console's language.
  const words = (k: string, v: unknown) =>
    k === 'message' && Array.isArray(d.messageText) ? wordJobMessage(d.messageText, str(v)) : valueInWords(v);
  return Object.entries(d)
    .filter(([k]) => k !== 'messageText')
    .map(([k, v]) => [fieldLabel(k), words(k, v)] as [string, string])
    .filter(([, v]) => v !== '');
}

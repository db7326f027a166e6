// The activity log in words: each entry as one sentence ("Imported en.json:
// 230 keys created, 12 texts updated, 3 refused (locked)") from its kind and
// the details the service records, and those details as labelled values a
// person reads (no field names, no null, no empty lists, no JSON).
import { count } from './wording';

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
  return total > shown ? `${head} and ${(total - shown).toLocaleString('en')} more` : head;
}

const REFUSAL_WORDS: Record<string, string> = {
  LOCKED: 'locked',
  CHARACTERS_LIMIT: 'over the characters limit',
  CHARACTER_LIMIT: 'over the characters limit',
  LANGUAGE: 'language not allowed',
  PERMISSION: 'not allowed',
};

/** "3 refused (locked)", "4 refused (3 locked, 1 over the characters limit)": a count or counts by reason. */
function refused(value: unknown): string {
  if (typeof value === 'number') return value ? `${value.toLocaleString('en')} refused` : '';
  if (typeof value !== 'object' || value === null) return '';
  const reasons = Object.entries(value as Record<string, unknown>).filter(([, n]) => num(n) > 0);
  const total = reasons.reduce((sum, [, n]) => sum + num(n), 0);
  if (!total) return '';
  const words = (reason: string) => REFUSAL_WORDS[reason] ?? reason.toLowerCase().replace(/_/g, ' ');
  return reasons.length === 1
    ? `${total.toLocaleString('en')} refused (${words(reasons[0]![0])})`
    : `${total.toLocaleString('en')} refused (${reasons.map(([r, n]) => `${num(n).toLocaleString('en')} ${words(r)}`).join(', ')})`;
}

const parts = (...items: (string | number | false | null | undefined)[]) => items.filter(Boolean).join(', ');

function importSentence(d: Details): string {
  const glossary = d.glossary as Details | undefined;
  if (glossary) return `Imported glossary terms${str(glossary.fileName) ? ` from ${str(glossary.fileName)}` : ''}`;
  const what = parts(
    num(d.keysCreated) && count(num(d.keysCreated), 'key') + ' created',
    num(d.translationsInserted) && count(num(d.translationsInserted), 'text') + ' added',
    num(d.translationsUpdated) && count(num(d.translationsUpdated), 'text') + ' updated',
    refused(d.translationsRefused),
    num(d.keysDeleted) && count(num(d.keysDeleted), 'key') + ' deleted',
    list(d.languagesCreated).length > 0 && `languages added: ${list(d.languagesCreated).join(', ')}`,
  );
  const file = str(d.fileName) || 'a file';
  return `Imported ${file}: ${what || 'nothing changed'}`;
}

function keysSentence(d: Details, e: EntryLike): string {
  const key = keyName(d);
  switch (d.action) {
    case 'CREATE_KEY':
      return `Created the key ${key}`;
    case 'CHANGE_KEY':
      return `Changed the key ${key}${
        list(d.fields).length
          ? `: ${list(d.fields)
              .map((f) => humanize(f).toLowerCase())
              .join(', ')}`
          : ''
      }`;
    case 'DELETE_KEY': {
      const n = num(d.count) || list(d.keys).length;
      return `Deleted ${count(n, 'key')}${list(d.keys).length ? `: ${some(list(d.keys), n)}` : ''}`;
    }
  }
  return `Changed ${count(e.edits || 1, 'key')}`;
}

function languagesSentence(d: Details): string {
  const language = str(d.name) ? `${str(d.name)} (${str(d.language)})` : str(d.language);
  switch (d.action) {
    case 'CREATE_LANGUAGE':
      return `Added the language ${language}`;
    case 'DELETE_LANGUAGE':
      return `Deleted the language ${language}`;
    case 'REORDER_LANGUAGES':
      return `Put the languages in the order ${list(d.languages).join(', ')}`;
  }
  return `Changed the language ${language}`.trim();
}

function customersSentence(d: Details): string {
  const customer = str(d.customer) || str(d.key);
  switch (d.action) {
    case 'CREATE_CUSTOMER':
      return `Added the customer ${customer}`;
    case 'DELETE_CUSTOMER':
      return `Deleted the customer ${customer}`;
  }
  return `Changed the customer ${customer}`.trim();
}

function settingsSentence(d: Details): string {
  switch (d.action) {
    case 'RENAME_PROJECT':
      return `Renamed the project from “${str(d.from)}” to “${str(d.to)}”`;
    case 'ROTATE_API_KEY':
      return 'Replaced the project API key';
  }
  if (str(d.environment)) return `Changed the settings of the environment ${str(d.environment)}`;
  if (list(d.settings).length) return `Changed the settings: ${list(d.settings).map(humanize).join(', ')}`;
  if (d.glossary) return 'Changed the glossary';
  return 'Changed the settings';
}

/** The entry as one sentence. */
export function sentenceOf(e: EntryLike): string {
  const d = (typeof e.details === 'object' && e.details !== null ? e.details : {}) as Details;
  switch (e.kind) {
    case 'IMPORT':
      return importSentence(d);
    case 'TRANSLATIONS':
      return `Wrote ${count(e.cellsChanged, 'text')}${e.edits ? `, ${count(e.edits, 'other edit')}` : ''}`;
    case 'KEYS':
      return keysSentence(d, e);
    case 'LANGUAGES':
      return languagesSentence(d);
    case 'CUSTOMERS':
      return customersSentence(d);
    case 'PUBLICATION':
      return `Published ${str(d.environment) || 'the translations'}${
        num(d.numberOfKeys)
          ? `: ${count(num(d.numberOfKeys), 'key')} in ${count(num(d.numberOfLanguages), 'language')}`
          : ''
      }`;
    case 'EXPORT':
      return `Exported ${count(num(d.files), 'file')}${str(d.downloadFormat) ? ` as ${str(d.downloadFormat)}` : ''}${
        list(d.languages).length ? ` (${list(d.languages).join(', ')})` : ''
      }`;
    case 'REVERT':
      return e.revertOf
        ? `Reverted entry #${e.revertOf}: ${count(e.cellsChanged, 'text')} set back`
        : `Set ${count(e.cellsChanged || 1, 'text')} back to an earlier version`;
    case 'AUTO_TRANSLATION':
      return `Auto-translated ${count(e.cellsChanged, 'text')}`;
    case 'JOB_STARTED':
      return `Started an auto-translation job${num(d.jobId) ? ` (#${num(d.jobId)})` : ''}`;
    case 'JOB_FINISHED':
      return `Finished an auto-translation job${num(d.jobId) ? ` (#${num(d.jobId)})` : ''}`;
    case 'PURGE':
      return `Deleted old history${e.cellsChanged ? `: ${count(e.cellsChanged, 'text')}` : ''}`;
    case 'QUALITY':
      return 'Changed quality findings';
    case 'AUTOMATION':
      return `An automation ran${e.cellsChanged ? `: ${count(e.cellsChanged, 'text')} written` : ''}`;
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

/** A detail's value in words; '' for nothing to say (null, empty lists, all-zero counts). */
export function valueInWords(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return value.toLocaleString('en');
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return some(value.map(valueInWords).filter(Boolean), value.length, 10);
  const key = keyName(value);
  if (key) return key;
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => [humanize(k).toLowerCase(), valueInWords(v)] as const)
    .filter(([, v]) => v && v !== '0')
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

/** The details worth showing, as [label, words]. */
export function detailsInWords(details: unknown): [string, string][] {
  if (typeof details !== 'object' || details === null) return [];
  return Object.entries(details as Details)
    .map(([k, v]) => [humanize(k), valueInWords(v)] as [string, string])
    .filter(([, v]) => v !== '');
}

// The vocabulary of the quality checks (src/checks/): what a check is given,
// what it finds. Pure data: the web console imports this module too.
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { MessageText } from '../message-text.js';

export type Severity = 'error' | 'warning' | 'info';

export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

/**
 * A placeholder dialect. `auto` (the default) recognises every dialect whose
 * syntax cannot be mistaken for prose; Laravel's `:name` and printf's space
 * flag (`% d`) only when named, because "Note:it" and "100% sure" are prose.
 */
export type Dialect =
  | 'auto'
  | 'icu'
  | 'printf'
  | 'python'
  | 'python-brace'
  | 'i18next'
  | 'ruby'
  | 'laravel'
  | 'angular'
  | 'qt'
  | 'ios'
  | 'dotnet'
  | 'gettext';

export const DIALECTS: readonly Dialect[] = [
  'auto',
  'icu',
  'printf',
  'python',
  'python-brace',
  'i18next',
  'ruby',
  'laravel',
  'angular',
  'qt',
  'ios',
  'dotnet',
  'gettext',
];

/** Each dialect as a person knows it, with its placeholders (the console's choice, the API's list). */
export const DIALECT_NAMES: Record<Dialect, string> = {
  auto: 'Automatic (every style that cannot be mistaken for prose)',
  icu: 'ICU MessageFormat: {name}, {n, plural, …}',
  printf: 'printf (C, Java): %s, %d, %1$s',
  python: 'Python %-style: %(name)s, %s',
  'python-brace': 'Python format: {name}, {0}',
  i18next: 'i18next: {{name}}, $t(key)',
  ruby: 'Ruby on Rails: %{name}',
  laravel: 'Laravel: :name',
  angular: 'Angular, Vue: {{ name }}',
  qt: 'Qt: %1, %n',
  ios: 'iOS, macOS: %@, %lld, %1$@',
  dotnet: '.NET: {0}, {0:N2}',
  gettext: 'gettext: %d, %s with plural forms',
};

/** One cell to check: its text, the source text of the same key, and what is known of the key. */
export interface CheckInput {
  /** The source (default language) text of the key. */
  source: string;
  /** The text checked. */
  target: string;
  sourceLanguage: string;
  targetLanguage: string;
  /** The key's characters limit, null when none. */
  charactersLimit?: number | null;
  /** The placeholder dialect of the key or project; `auto` when unknown. */
  dialect?: Dialect;
}

/** Where in the target text a finding is (UTF-16 offsets, end excluded). */
export interface Span {
  start: number;
  end: number;
}

export interface Finding {
  check: string;
  severity: Severity;
  /** What is wrong and what to do, in one sentence. */
  message: string;
  /** The message as data, for a client to word in its language (src/checks/messages.ts). */
  text: MessageText | null;
  /** The part of the target text concerned; null when it is about something absent (a missing placeholder). */
  span: Span | null;
}

/** What a check returns: its findings without the check's id and severity (the registry adds them). */
export interface Problem {
  message: string;
  /** The message as data (problem() in src/checks/messages.ts words it in English from this). */
  text?: MessageText;
  span?: Span | null;
}

export type CheckCategory = 'placeholders' | 'plurals' | 'markup' | 'text' | 'consistency';

export interface CheckDefinition {
  id: string;
  category: CheckCategory;
  /** A short name for lists and filters. */
  title: string;
  severity: Severity;
  /** False for checks too noisy to run unless a project turns them on (docs/quality-checks.md). */
  enabled: boolean;
  /**
   * 'project': the check compares a cell with the project's other cells
   * (src/checks/consistency.ts), so it cannot run on one pair: the findings
   * updater computes it in SQL, and runChecks leaves it out. Default 'cell'.
   */
  scope?: 'cell' | 'project';
  run(pair: Pair): Problem[];
}

export interface Token {
  /** Identity across languages: syntax and name; '' for unnumbered tokens (identified by order). */
  key: string;
  /** What must not change: printf conversion with its length, an ICU argument's type, a format. */
  type: string;
  raw: string;
  start: number;
  end: number;
  /** The token is an ICU argument (compared as a set: a plural branch may repeat or drop it). */
  icu?: boolean;
}

export interface Reading {
  tokens: Token[];
  /** The formatjs parse of the text, when it is an ICU message (else null). */
  icu: MessageFormatElement[] | null;
  /** The parse error when the text has braces and is not ICU. */
  icuError: string | null;
  /** The text with every token blanked (NUL characters, offsets kept): what the text checks read as prose. */
  prose: string;
}

/** A cell read once for all checks: both texts with their placeholders and prose (pairOf, src/checks/index.ts). */
export interface Pair extends Required<CheckInput> {
  sourceReading: Reading;
  targetReading: Reading;
}

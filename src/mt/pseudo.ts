// PSEUDO: the built-in pseudo-localization provider. Offline and
// deterministic, for demos and UI-length testing on a machine with no
// provider key. Each translatable unit of a text (see placeholders.ts) becomes
//   [!!! Ŧḗḗşŧ ŧḗḗẋŧ !!!]
// letters replaced by accented look-alikes, vowels doubled (about 30-40 %
// longer for English text) and the unit wrapped in "[!!! " … " !!!]" so that
// truncation and untranslated strings show in the UI. Placeholders, tags and
// ICU syntax are untouched; an ICU plural keeps its structure with each
// branch pseudo-localized. Any well-formed BCP 47 tag is accepted as the
// target (e.g. "en-XA", "qps-ploc", "de").
import { assembleText, decodeUnit, escapeMarkup, prepareText, unescapeMarkup } from './placeholders.js';
import {
  MtValidationError,
  type TranslateOptions,
  type TranslationProvider,
  type TranslationRequest,
} from './types.js';
import { optional, refuseProviderBOptions } from './validation.js';

const LOWER = 'ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥɋřşŧŭṽẇẋẏẑ';
const UPPER = 'ȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ';
const ACCENTS = new Map<string, string>();
for (let i = 0; i < 26; i++) {
  ACCENTS.set(String.fromCharCode(97 + i), [...LOWER][i]!);
  ACCENTS.set(String.fromCharCode(65 + i), [...UPPER][i]!);
}
const VOWELS = new Set('aeiouyAEIOUY');

export const PSEUDO_OPEN = '[!!! ';
export const PSEUDO_CLOSE = ' !!!]';
const BCP47 = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

/** Accents and lengthens plain text (no markup). */
export function pseudoText(text: string): string {
  let out = '';
  for (const c of text) {
    const accented = ACCENTS.get(c);
    out += accented === undefined ? c : VOWELS.has(c) ? accented + accented : accented;
  }
  return out;
}

/** Pseudo-localizes a unit in the xml markup of placeholders.ts, leaving its elements alone. */
export function pseudoEncoded(encoded: string): string {
  let out = '';
  let last = 0;
  for (const m of encoded.matchAll(/<[^>]*>/g)) {
    out += escapeMarkup(pseudoText(unescapeMarkup(encoded.slice(last, m.index))));
    out += m[0];
    last = m.index + m[0].length;
  }
  out += escapeMarkup(pseudoText(unescapeMarkup(encoded.slice(last))));
  return `${PSEUDO_OPEN}${out}${PSEUDO_CLOSE}`;
}

/** The pseudo-localized form of a whole text, synchronously. */
export function pseudoLocalize(text: string): string {
  const prepared = prepareText(text, 'xml');
  const translations = prepared.units.map((u) =>
    u.translatable ? decodeUnit(pseudoEncoded(u.encoded), u, 'xml') : null,
  );
  return assembleText(prepared, translations);
}

function checkTag(field: 'sourceLanguage' | 'targetLanguage', code: string): void {
  if (!BCP47.test(code)) {
    throw new MtValidationError(
      field,
      `${field} "${code}" is not a language tag; PSEUDO takes any BCP 47 tag such as "en-XA" or "de"`,
    );
  }
}

export function createPseudoProvider(): TranslationProvider {
  const provider: TranslationProvider = {
    id: 'PSEUDO',
    markup: 'xml',
    validateLanguages({ sourceLanguage, targetLanguage }) {
      checkTag('targetLanguage', targetLanguage);
      const source = optional(sourceLanguage);
      if (source !== undefined) checkTag('sourceLanguage', source);
    },
    validateRequest(request: TranslationRequest): TranslateOptions {
      provider.validateLanguages(request);
      refuseProviderBOptions('PSEUDO', request);
      return { targetLanguage: request.targetLanguage, sourceLanguage: optional(request.sourceLanguage) };
    },
    async checkGlossary() {
      throw new MtValidationError(
        'providerGlossaryId',
        'providerGlossaryId is only supported by MT_PROVIDER_B, not by PSEUDO',
      );
    },
    batchLimits() {
      return { maxTexts: 1000, maxSize: 1_000_000, sizeOf: (t) => t.length, maxSingle: Number.POSITIVE_INFINITY };
    },
    async translateBatch(texts, _options, signal) {
      if (signal?.aborted) throw signal.reason;
      return texts.map(pseudoEncoded);
    },
  };
  return provider;
}

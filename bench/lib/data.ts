// Generated content of the benchmark projects.
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'sv', 'ja'];

/** The GraphQL read of the bench (reads.ts, and the request profiler's load): keys with their cells. */
export const GRAPHQL_READ = `query($first: Int!) { translationKeys(first: $first) { edges { node { key namespace translations { language text } } } } }`;

export function keyName(i: number): string {
  return `screen${Math.floor(i / 50)}.section${Math.floor(i / 10) % 5}.label_${i}`;
}

export function textOf(language: string, i: number, version = 1): string {
  return `${language} text ${i} v${version} with {name} and some words`;
}

/** `{ language: { key: text } }` — the multi-language-json layout (languages on the first level). */
export function multiLanguageJson(keys: number, languages = LANGUAGES, version = 1): Buffer {
  const sections = languages.map((l) => {
    const parts: string[] = [];
    for (let i = 0; i < keys; i++) parts.push(`${JSON.stringify(keyName(i))}:${JSON.stringify(textOf(l, i, version))}`);
    return `${JSON.stringify(l)}:{${parts.join(',')}}`;
  });
  return Buffer.from(`{${sections.join(',')}}`);
}

/** Words a product's texts are made of, per script (Japanese without spaces). */
const WORDS: Record<string, string[]> = {
  latin: [
    'account',
    'settings',
    'save',
    'changes',
    'your',
    'project',
    'the',
    'file',
    'could',
    'not',
    'be',
    'uploaded',
    'please',
    'try',
    'again',
    'later',
    'invoice',
    'payment',
    'method',
    'delivery',
    'address',
    'order',
    'confirmed',
    'welcome',
    'back',
    'team',
    'members',
    'invite',
    'permission',
    'denied',
    'überprüfen',
    'réglages',
    'añadir',
    'größe',
    'ça',
    'más',
  ],
  ja: [
    '設定',
    'を',
    '保存',
    'しました',
    'アカウント',
    'ファイル',
    'の',
    'アップロード',
    'に',
    '失敗',
    'もう一度',
    'お試し',
    'ください',
    '注文',
    '確認',
    'チーム',
  ],
};

/** A deterministic pseudo-random source (mulberry32). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * A text as a product has them: most are labels (2-5 words), some sentences
 * (8-25 words, a placeholder, now and then markup), a few long help texts or
 * legal paragraphs (60-400 words).
 */
function productText(language: string, next: () => number): string {
  const words = WORDS[language === 'ja' ? 'ja' : 'latin']!;
  const kind = next();
  const count =
    kind < 0.6 ? 2 + Math.floor(next() * 4) : kind < 0.93 ? 8 + Math.floor(next() * 18) : 60 + Math.floor(next() * 340);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(words[Math.floor(next() * words.length)]!);
  if (count > 5) parts.splice(Math.floor(next() * count), 0, '{name}');
  if (count > 5 && next() < 0.2) {
    parts.splice(1, 0, '<b>');
    parts.push('</b>');
  }
  return parts.join(language === 'ja' ? '' : ' ') + (count > 5 ? '.' : '');
}

/**
 * A JSON file of about `bytes` bytes laid out as real projects lay theirs out:
 * keys nested three levels deep (`screen.section.key`), texts of the lengths
 * of productText. One language: a single-language-json file of that
 * language; several: a multi-language-json file (languages on the first
 * level), each language holding the same keys.
 */
export function productJson(bytes: number, languages: string[]): Buffer {
  const perLanguage = bytes / languages.length;
  const parts: string[] = [];
  let keys = 0;
  // The key count is set by the first language's texts; the others have the same keys.
  for (const [n, language] of languages.entries()) {
    const next = random(n + 1);
    let size = 0;
    let screen = '';
    let section = '';
    const out: string[] = [];
    for (let i = 0; n === 0 ? size < perLanguage : i < keys; i++) {
      const s = `screen_${Math.floor(i / 200)}`;
      const sec = `section_${Math.floor(i / 20) % 10}`;
      if (s !== screen) {
        if (screen) out.push('}},');
        out.push(`${JSON.stringify(s)}:{${JSON.stringify(sec)}:{`);
        screen = s;
        section = sec;
      } else if (sec !== section) {
        out.push(`},${JSON.stringify(sec)}:{`);
        section = sec;
      } else out.push(',');
      const member = `${JSON.stringify(`label_${i}`)}:${JSON.stringify(productText(language, next))}`;
      out.push(member);
      size += Buffer.byteLength(member);
      if (n === 0) keys = i + 1;
    }
    const body = `{${out.join('')}}}}`;
    parts.push(languages.length === 1 ? body : `${JSON.stringify(language)}:${body}`);
  }
  return Buffer.from(languages.length === 1 ? parts[0]! : `{${parts.join(',')}}`);
}

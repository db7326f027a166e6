// Generated content of the benchmark projects.
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'sv', 'ja'];

export function keyName(i: number): string {
  return `screen${Math.floor(i / 50)}.section${Math.floor(i / 10) % 5}.label_${i}`;
}

export function textOf(language: string, i: number, version = 1): string {
  return `${language} text ${i} v${version} with {name} and some words`;
}

/** `{ key: { language: text } }` — the multi-language-json layout. */
export function multiLanguageJson(keys: number, languages = LANGUAGES, version = 1): Buffer {
  const parts: string[] = [];
  for (let i = 0; i < keys; i++) {
    const inner = languages.map((l) => `${JSON.stringify(l)}:${JSON.stringify(textOf(l, i, version))}`).join(',');
    parts.push(`${JSON.stringify(keyName(i))}:{${inner}}`);
  }
  return Buffer.from(`{${parts.join(',')}}`);
}

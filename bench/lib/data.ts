// Generated content of the benchmark projects.
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'sv', 'ja'];

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

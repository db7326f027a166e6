// Cells of a job filled from the translation memory (docs/translation-memory.md):
// each key's text looked up in the memory the project reads, and its best
// suggestion taken when it scores at least the job's memoryMinScore (the
// query's placeholders, numbers and tags substituted into it). Used by MEMORY
// jobs (pre-translation: nothing else) and by any provider asked to use the
// memory first (the rest goes to the provider).
import { suggest } from '../memory/suggest.js';
import type { MemoryScope } from '../memory/scope.js';

export interface MemoryFill {
  text: string;
  score: number;
}

export async function fillFromMemory(
  scope: MemoryScope,
  languages: { source: string; target: string },
  keys: readonly { id: number; key: string; namespace: string; text: string }[],
  minScore: number,
): Promise<Map<number, MemoryFill>> {
  const filled = new Map<number, MemoryFill>();
  for (const k of keys) {
    if (!k.text.trim()) continue;
    const [best] = await suggest(scope, {
      text: k.text,
      sourceLanguage: languages.source,
      targetLanguage: languages.target,
      key: { id: k.id, key: k.key, namespace: k.namespace },
      limit: 1,
      minScore,
    });
    if (best && best.text.trim()) filled.set(k.id, { text: best.text, score: best.score });
  }
  return filled;
}

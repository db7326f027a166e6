// /api/v2/translation-memory (project API key or an account with projectToken):
// suggestions from the translation memory for a text or a key of the project
// (docs/translation-memory.md). Sharing memories is a person's decision and
// stays in GraphQL (setProjectMemoryLink), where an account credential acts.
import { requiredQuery, queryInt, queryString } from '../params.js';
import { defineRoute, type RestRoute } from '../route.js';

const SUGGESTION = `fragment RestMemorySuggestion on MemorySuggestion {
  score exact text source target substituted sameKey substitutions { kind from to }
  origin { kind projectName key namespace language memoryId memoryName lastEditedAt lastEditedBy reviewed }
}`;

export const routes: RestRoute[] = [
  defineRoute<{ memorySuggestions: { sourceLanguage: string; sourceText: string; suggestions: unknown[] } }>({
    method: 'GET',
    path: '/api/v2/translation-memory/suggestions',
    auth: 'apiKey',
    summary:
      "Translation-memory suggestions for a text (text) or a key's default-language text (key, namespace) in a target language of the project, best first",
    query: [
      { name: 'targetLanguage', required: true, description: 'A language key of the project' },
      { name: 'text', description: 'The source text to match (the project default language); or give key' },
      { name: 'key', description: 'A key of the project: its default-language text is matched, its own cell left out' },
      { name: 'namespace', description: 'The namespace of key' },
      { name: 'limit', type: 'integer', minimum: 1, maximum: 50, description: 'Default 10' },
      { name: 'minScore', type: 'integer', minimum: 0, maximum: 100, description: 'Default 50' },
    ],
    document: `query RestMemorySuggestions($sourceText: String, $key: String, $namespace: String, $targetLanguage: String!, $limit: Int, $minScore: Int) {
      memorySuggestions(sourceText: $sourceText, key: $key, namespace: $namespace, targetLanguage: $targetLanguage, limit: $limit, minScore: $minScore) {
        sourceLanguage sourceText suggestions { ...RestMemorySuggestion }
      }
    } ${SUGGESTION}`,
    toVariables: (req) => ({
      targetLanguage: requiredQuery(req.query, 'targetLanguage'),
      sourceText: queryString(req.query, 'text', { maxLength: 2000 }),
      key: queryString(req.query, 'key'),
      namespace: queryString(req.query, 'namespace'),
      limit: queryInt(req.query, 'limit', { min: 1, max: 50 }),
      minScore: queryInt(req.query, 'minScore', { min: 0, max: 100 }),
    }),
    toResponse: (data) => ({ data: data.memorySuggestions }),
  }),
];

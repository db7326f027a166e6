// /api/v2/glossary (our extension beside the contract; project API key or an
// account with projectToken): the project's glossary terms, the terms found
// in a text, TBX/CSV import (multipart field `file`) and export
// (docs/glossary.md). Shared glossaries are managed in GraphQL.
import { enumValue, queryBoolean, queryInt, queryString, requiredQuery } from '../params.js';
import { defineRoute, type RestRoute } from '../route.js';

const TERM =
  'id term description partOfSpeech forbidden doNotTranslate caseSensitive abbreviation translations { language text }';

export const routes: RestRoute[] = [
  defineRoute<{ glossaryTerms: { total: number; sourceLanguage: string; terms: unknown[] } }>({
    method: 'GET',
    path: '/api/v2/glossary/terms',
    auth: 'apiKey',
    summary: "The terms of the project's glossary, in term order; search matches a term, description or translation",
    query: [
      { name: 'search', description: 'Part of a term, description or translation (case-insensitive)' },
      { name: 'forbidden', description: 'true: only forbidden terms; false: only the others' },
      { name: 'doNotTranslate', description: 'true: only do-not-translate terms; false: only the others' },
      { name: 'caseSensitive', description: 'true: only case-sensitive terms; false: only the others' },
      { name: 'size', type: 'integer', minimum: 1, maximum: 1000, description: 'Default 100' },
      { name: 'offset', type: 'integer', minimum: 0 },
    ],
    document: `query RestGlossaryTerms($search: String, $forbidden: Boolean, $doNotTranslate: Boolean, $caseSensitive: Boolean, $first: Int, $offset: Int) {
      glossaryTerms(search: $search, forbidden: $forbidden, doNotTranslate: $doNotTranslate, caseSensitive: $caseSensitive, first: $first, offset: $offset) {
        total sourceLanguage terms { ${TERM} }
      }
    }`,
    toVariables: (req) => ({
      search: queryString(req.query, 'search', { maxLength: 200 }),
      forbidden: queryBoolean(req.query, 'forbidden'),
      doNotTranslate: queryBoolean(req.query, 'doNotTranslate'),
      caseSensitive: queryBoolean(req.query, 'caseSensitive'),
      first: queryInt(req.query, 'size', { min: 1, max: 1000 }),
      offset: queryInt(req.query, 'offset', { min: 0 }),
    }),
    toResponse: (data) => ({ data: data.glossaryTerms }),
  }),
  defineRoute<{ glossaryMatches: unknown[] }>({
    method: 'GET',
    path: '/api/v2/glossary/matches',
    auth: 'apiKey',
    summary:
      "The glossary terms found in a text of the project's default language, with their translation for targetLanguage",
    query: [
      { name: 'text', required: true, description: 'The source text' },
      { name: 'targetLanguage', required: true, description: 'A language key' },
    ],
    document: `query RestGlossaryMatches($text: String!, $targetLanguage: String!) {
      glossaryMatches(text: $text, targetLanguage: $targetLanguage) { termId term description partOfSpeech forbidden doNotTranslate caseSensitive translation start end text occurrences }
    }`,
    toVariables: (req) => ({
      text: requiredQuery(req.query, 'text'),
      targetLanguage: requiredQuery(req.query, 'targetLanguage'),
    }),
    toResponse: (data) => ({ data: data.glossaryMatches }),
  }),
  defineRoute<{ importGlossary: { created: number; updated: number; skipped: number } }>({
    method: 'POST',
    path: '/api/v2/glossary/import',
    auth: 'apiKey',
    summary:
      "Import a TBX or CSV glossary file (multipart form field `file`) into the project's glossary; all or nothing",
    multipart: true,
    query: [
      {
        name: 'format',
        enum: 'GlossaryFormat',
        description: 'TBX or CSV; default: from the file name, else the content',
      },
    ],
    document: `mutation RestGlossaryImport($file: Upload!, $format: GlossaryFormat) { importGlossary(file: $file, format: $format) { created updated skipped } }`,
    toVariables: (req, schema) => ({
      file: req.file!,
      format: enumValue(schema, 'GlossaryFormat', 'format', queryString(req.query, 'format')),
    }),
    toResponse: (data) => ({ data: data.importGlossary }),
  }),
  defineRoute<{ exportGlossary: { url: string; fileName: string } }>({
    method: 'GET',
    path: '/api/v2/glossary/export',
    auth: 'apiKey',
    summary: "The project's glossary as a TBX or CSV file, downloaded from its url",
    query: [{ name: 'format', required: true, enum: 'GlossaryFormat', description: 'TBX or CSV' }],
    document: `mutation RestGlossaryExport($format: GlossaryFormat!) { exportGlossary(format: $format) { url fileName } }`,
    toVariables: (req, schema) => ({
      format: enumValue(schema, 'GlossaryFormat', 'format', requiredQuery(req.query, 'format')),
    }),
    toResponse: (data) => ({ data: data.exportGlossary }),
  }),
];

// /api/v1/languages (project API key): the languages of the project.
import { bodyFields } from '../params.js';
import { defineRoute, type RestRoute } from '../route.js';

const LANGUAGE_FIELDS = ['key', 'name'] as const;

type Language = { key: string; name: string };

export const routes: RestRoute[] = [
  defineRoute<{ createLanguage: Language }>({
    method: 'POST',
    path: '/api/v1/languages',
    auth: 'apiKey',
    summary: 'Add a language to the project',
    body: { $ref: '#/components/schemas/CreateLanguageInput' },
    document: `mutation RestCreateLanguage($input: CreateLanguageInput!) { createLanguage(input: $input) { key name } }`,
    toVariables: (req) => ({ input: bodyFields(req.body, LANGUAGE_FIELDS) }),
    toResponse: (data) => ({ data: data.createLanguage }),
  }),
  defineRoute<{ languages: Language[] }>({
    method: 'GET',
    path: '/api/v1/languages',
    auth: 'apiKey',
    summary: 'List the languages of the project',
    response: {
      data: {
        type: 'array',
        items: {
          type: 'object',
          properties: { key: { type: 'string' }, description: { type: 'string', description: 'The display name' } },
          required: ['key', 'description'],
          additionalProperties: false,
        },
      },
    },
    document: `query RestLanguages { languages { key name } }`,
    toVariables: () => ({}),
    // The contract's list items carry the display name as `description`.
    toResponse: (data) => ({ data: data.languages.map((l) => ({ key: l.key, description: l.name })) }),
  }),
  defineRoute<{ updateLanguage: Language }>({
    method: 'PATCH',
    path: '/api/v1/languages/:languageKey',
    auth: 'apiKey',
    summary: 'Rename a language or change its name; its translations follow',
    body: { $ref: '#/components/schemas/UpdateLanguageInput' },
    document: `mutation RestUpdateLanguage($key: String!, $input: UpdateLanguageInput!) { updateLanguage(key: $key, input: $input) { key name } }`,
    toVariables: (req) => ({
      key: req.params.languageKey,
      input: bodyFields(req.body, [...LANGUAGE_FIELDS, 'isDefault']),
    }),
    toResponse: (data) => ({ data: data.updateLanguage }),
  }),
  defineRoute<{ deleteLanguage: boolean }>({
    method: 'DELETE',
    path: '/api/v1/languages/:languageKey',
    auth: 'apiKey',
    summary: 'Delete a language and every translation in it',
    response: { data: null },
    document: `mutation RestDeleteLanguage($key: String!) { deleteLanguage(key: $key) }`,
    toVariables: (req) => ({ key: req.params.languageKey }),
    toResponse: () => ({}),
  }),
];

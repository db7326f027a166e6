// /api/v2/quality-checks (our extension beside the contract; project API key
// or an account with projectToken): the project's quality-check findings with
// their counts, for a CI pipeline to fail a build on errors
// (docs/quality-checks.md, "In CI").
import { queryBoolean, queryInt, queryString } from '../params.js';
import { defineRoute, type RestRoute } from '../route.js';
import { CUSTOMER_ID_NAMING } from '../variables.js';

// The contract names a customer's key customerId (null: the base translation).
const FINDING =
  'key namespace languageCode customerId: customerKey check severity message spanStart spanEnd dismissed text';

export const routes: RestRoute[] = [
  defineRoute<{ qualityFindings: Record<string, unknown> }>({
    method: 'GET',
    path: '/api/v2/quality-checks',
    auth: 'apiKey',
    summary:
      "The project's quality-check findings (errors first) with their counts per language, check and severity; `pending` (keys) > 0 while written texts are still being checked",
    query: [
      { name: 'languageCode', description: 'Only this language' },
      { name: 'severity', description: 'error, warning or info' },
      { name: 'check', description: 'A check id (docs/quality-checks.md)' },
      {
        name: 'customerId',
        description:
          "A customer's key: only the findings of its overrides (default: every finding, base translations and every customer's overrides)",
      },
      { name: 'includeDismissed', description: 'true: also dismissed findings (default false)' },
      {
        name: 'size',
        type: 'integer',
        minimum: 0,
        maximum: 1000,
        description: 'Findings listed, default 100 (the counts are always complete)',
      },
      { name: 'offset', type: 'integer', minimum: 0 },
    ],
    naming: CUSTOMER_ID_NAMING,
    document: `query RestQualityFindings($languageCode: String, $severity: String, $check: String, $customerKey: String, $includeDismissed: Boolean, $first: Int, $offset: Int) {
      qualityFindings(languageCode: $languageCode, severity: $severity, check: $check, customerKey: $customerKey, includeDismissed: $includeDismissed, first: $first, offset: $offset) {
        total errors warnings infos pending
        counts { languageCode check severity count dismissed }
        findings { ${FINDING} }
      }
    }`,
    toVariables: (req) => ({
      languageCode: queryString(req.query, 'languageCode', { maxLength: 100 }),
      severity: queryString(req.query, 'severity', { maxLength: 20 }),
      check: queryString(req.query, 'check', { maxLength: 100 }),
      customerKey: queryString(req.query, 'customerId', { maxLength: 100 }),
      includeDismissed: queryBoolean(req.query, 'includeDismissed'),
      first: queryInt(req.query, 'size', { min: 0, max: 1000 }),
      offset: queryInt(req.query, 'offset', { min: 0 }),
    }),
    toResponse: (data) => ({ data: data.qualityFindings }),
  }),
];

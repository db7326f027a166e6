import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printSchemaFile } from '../../src/schema/print.js';

describe('schema.graphql', () => {
  it('is the printed schema (run `npm run schema` after changing src/schema)', () => {
    const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(printSchemaFile());
  });
});

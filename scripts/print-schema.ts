// Writes the printed GraphQL schema to schema.graphql (committed; a test fails
// when it is out of date): npm run schema
import { writeFileSync } from 'node:fs';
import { printSchemaFile } from '../src/schema/print.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), printSchemaFile());
console.log('wrote schema.graphql');

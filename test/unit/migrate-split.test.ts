// The migration runner sends a migration's statements one by one: it must not
// split inside a quoted string or a dollar-quoted body (a DO block).
import { describe, expect, it } from 'vitest';
import { splitStatements } from '../../src/db/migrate.js';

describe('splitStatements', () => {
  it('splits on statement ends, skipping comment lines', () => {
    expect(
      splitStatements("-- a comment; with a semicolon\nCREATE TABLE a (x text DEFAULT 'a;b');\nSELECT 1;"),
    ).toEqual(["CREATE TABLE a (x text DEFAULT 'a;b');", 'SELECT 1;']);
  });

  it('keeps a DO block whole, semicolons and quotes inside it included', () => {
    const block =
      "DO $$\nBEGIN\n  IF version() NOT LIKE '%wasm32%' THEN\n    CREATE INDEX i ON t (x);\n  END IF;\nEND\n$$;";
    expect(splitStatements(`CREATE TABLE t (x text);\n${block}\nSELECT '$$';`)).toEqual([
      'CREATE TABLE t (x text);',
      block,
      "SELECT '$$';",
    ]);
  });
});

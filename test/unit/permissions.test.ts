// The permission list of src/teams/permissions.ts covers every project
// operation of the schema, and names only operations that exist: a new field
// with a projectToken argument fails here until it states its permission.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/schema/index.js';
import {
  OPERATION_PERMISSIONS,
  PERMISSIONS,
  ROLE_PERMISSIONS,
  ROLES,
  API_KEY_PERMISSIONS,
  IN_CONTEXT_CAPTURE_PERMISSIONS,
} from '../../src/teams/permissions.js';

const rootFields = () =>
  [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((type) =>
    Object.values(type?.getFields() ?? {}),
  );

describe('OPERATION_PERMISSIONS', () => {
  it('lists every root field that takes a projectToken', () => {
    const projectFields = rootFields()
      .filter((f) => f.args.some((a) => a.name === 'projectToken'))
      .map((f) => f.name);
    expect(projectFields.filter((name) => !(name in OPERATION_PERMISSIONS))).toEqual([]);
  });

  it('names only fields of the schema, with known permissions', () => {
    const names = new Set(rootFields().map((f) => f.name));
    expect(Object.keys(OPERATION_PERMISSIONS).filter((name) => !names.has(name))).toEqual([]);
    for (const permission of Object.values(OPERATION_PERMISSIONS)) expect(PERMISSIONS).toContain(permission);
  });

  it('gives the owner everything, the viewer only reads, and the API key no account matters', () => {
    expect([...ROLE_PERMISSIONS.OWNER]).toEqual([...PERMISSIONS]);
    expect(ROLE_PERMISSIONS.VIEWER).toEqual(['READ_TEXTS', 'READ', 'EXPORT']);
    for (const role of ROLES) for (const p of ROLE_PERMISSIONS[role]) expect(ROLE_PERMISSIONS.OWNER).toContain(p);
    expect(API_KEY_PERMISSIONS).not.toContain('MEMBERS');
    expect(API_KEY_PERMISSIONS).toContain('PUBLISH');
  });
});

describe('docs/teams.md', () => {
  it('prints the matrix of the code', () => {
    const doc = readFileSync(new URL('../../docs/teams.md', import.meta.url), 'utf8');
    const rows = doc
      .split('\n')
      .filter((line) => /^\| `[A-Z_]+` \|/.test(line))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim()),
      )
      .filter((cells) => cells.length === 8);
    expect(rows.map((r) => r[0]!.replace(/`/g, ''))).toEqual([...PERMISSIONS]);
    for (const [name, , ...cells] of rows) {
      const permission = name!.replace(/`/g, '') as (typeof PERMISSIONS)[number];
      const granted = cells.map((c) => c !== '–');
      expect(granted, permission).toEqual([
        ...ROLES.map((role) => ROLE_PERMISSIONS[role].includes(permission)),
        API_KEY_PERMISSIONS.includes(permission),
        IN_CONTEXT_CAPTURE_PERMISSIONS.includes(permission),
      ]);
    }
  });
});

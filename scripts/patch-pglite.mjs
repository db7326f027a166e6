// PGlite's protocol reader decodes every text field it reads with
// `new TextDecoder('utf-8')`, whose default takes a leading U+FEFF for a
// byte-order mark and drops it: a translation that starts with U+FEFF came
// back from the embedded database without it (the REST reads, the editor,
// whose save then stored it without), while PostgreSQL's driver keeps it.
// Still so in PGlite 0.5.16 (checked 2026-11-25). This step gives that
// decoder `ignoreBOM: true`, which keeps every character; it runs with every
// generate (npm start, npm test), leaves a patched file alone, and fails when
// the reader is no longer found, so that an upgrade is checked again
// (test/api/text-fidelity.test.ts).
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DIST = 'node_modules/@electric-sql/pglite/dist';
// The reader's decoder, built from its encoding field (`new TextDecoder(r(this,ce))` minified).
const READER = /new TextDecoder\((\w+\(this,\w+\))\)/g;
const PATCHED = /new TextDecoder\(\w+\(this,\w+\),\{ignoreBOM:!0\}\)/;

let found = 0;
for (const name of readdirSync(DIST)) {
  if (!/\.(c?js)$/.test(name)) continue;
  const file = join(DIST, name);
  const text = readFileSync(file, 'utf8');
  if (PATCHED.test(text)) {
    found++;
    continue;
  }
  const patched = text.replace(READER, 'new TextDecoder($1,{ignoreBOM:!0})');
  if (patched === text) continue;
  // Written beside and renamed over: node_modules may be shared by checkouts that
  // generate at the same time, and none may read a half-written file.
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, patched);
  renameSync(temporary, file);
  found++;
}
if (found === 0) {
  console.error(
    `patch-pglite: the protocol reader's TextDecoder was not found in ${DIST}; check whether this PGlite still drops a leading U+FEFF`,
  );
  process.exit(1);
}

// A build output that running processes can keep using while a new one is
// made. `dist` (or `web/dist`) is a symbolic link to `dist.<hash>`, a folder
// named after the content of the build's inputs and never changed once made:
// the same inputs are never built twice, a new build goes to a fresh folder
// and the link is switched to it in one rename. A process started from the
// old folder (node resolves `dist/main.js` to its real path) keeps loading its
// lazily imported chunks from there, so the previous builds stay too; only
// builds older than the last KEEP are removed.
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

/** Builds kept next to the current one, for processes still running from them. */
const KEEP = 3;

function files(path, skip) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) return [path];
  return readdirSync(path)
    .filter((entry) => !skip(entry))
    .sort()
    .flatMap((entry) => files(join(path, entry), skip));
}

/** A hash of the inputs' names and contents (folders walked, `skip` leaves entries out by name). */
export function hashInputs(root, inputs, skip = () => false) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((input) => files(input, skip))) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** The folder the link points at, when the link exists. */
export function currentBuild(link) {
  const stat = lstatSync(link, { throwIfNoEntry: false });
  return stat?.isSymbolicLink() ? join(dirname(link), readlinkSync(link)) : undefined;
}

/**
 * Makes `link` point at a complete build of the inputs whose hash is `hash`:
 * reuses it when it exists, otherwise runs `build(folder)` into a fresh
 * temporary folder, renames that into place and switches the link.
 */
export async function switchedBuild({ link, hash, build }) {
  const parent = dirname(link);
  const name = basename(link);
  const folder = join(parent, `${name}.${hash}`);
  let built = false;
  if (!existsSync(folder)) {
    const temporary = join(parent, `${name}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      await build(temporary);
      try {
        renameSync(temporary, folder);
        built = true;
      } catch (error) {
        // Another build of the same inputs finished first: its folder is as good.
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      }
    } finally {
      rmSync(temporary, { recursive: true, force: true });
    }
  }
  const stat = lstatSync(link, { throwIfNoEntry: false });
  if (stat && !stat.isSymbolicLink()) {
    // A plain folder from before builds were switched: moved aside, removed with the old builds.
    renameSync(link, join(parent, `${name}.legacy-${randomBytes(4).toString('hex')}`));
  }
  if (currentBuild(link) !== folder) {
    const next = join(parent, `${name}.link-${process.pid}-${randomBytes(4).toString('hex')}`);
    symlinkSync(basename(folder), next);
    renameSync(next, link);
  }
  prune(parent, name, folder);
  return { folder, built };
}

/** Removes the temporary folders of dead builds and all but the KEEP newest builds. */
function prune(parent, name, current) {
  const builds = [];
  for (const entry of readdirSync(parent)) {
    if (!entry.startsWith(`${name}.`)) continue;
    const path = join(parent, entry);
    const rest = entry.slice(name.length + 1);
    const owner = /^(?:tmp|link)-(\d+)-/.exec(rest);
    if (owner) {
      if (!alive(Number(owner[1]))) rmSync(path, { recursive: true, force: true });
      continue;
    }
    if (path === current) continue;
    if (/^[0-9a-f]{16}$/.test(rest) || rest.startsWith('legacy-')) builds.push({ path, mtime: statSync(path).mtimeMs });
  }
  builds.sort((a, b) => b.mtime - a.mtime);
  for (const { path } of builds.slice(KEEP - 1)) rmSync(path, { recursive: true, force: true });
}

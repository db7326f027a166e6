// Checks exported XML with libxml2's xmllint, an independent parser, when it is installed.
import { spawnSync } from 'node:child_process';

export const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;

/** Runs `xmllint --noout -` on the bytes; returns its complaints ('' when the XML is well-formed). */
export function xmllintErrors(xml: Buffer): string {
  const r = spawnSync('xmllint', ['--noout', '-'], { input: xml });
  return r.status === 0 ? '' : r.stderr.toString() || `xmllint exited with ${r.status}`;
}

// Writes a group of figures into the README between its markers
// (<!-- bench:NAME --> … <!-- /bench:NAME -->), so the published table is
// always the last run's output, never edited by hand.
import { readFileSync, writeFileSync } from 'node:fs';
import { table } from './report.js';
import type { Figure } from './types.js';

const README = new URL('../../README.md', import.meta.url);

export function writeReadmeTable(name: string, figures: Figure[], intro: string): boolean {
  const text = readFileSync(README, 'utf8');
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from || figures.length === 0) return false;
  writeFileSync(README, `${text.slice(0, from + start.length)}\n${intro}\n\n${table(figures)}\n${text.slice(to)}`);
  return true;
}

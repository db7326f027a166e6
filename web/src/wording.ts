// Counts in words: "1 key", "2 keys", "1,024 keys". One rule for every screen.
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? singular : plural}`;
}

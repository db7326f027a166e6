// Invisible markers: each translated string is followed by the index of its
// key, written in zero-width characters (as Tolgee's SDK does), so the DOM
// observer can tell which element shows which key. Indexes, not the keys
// themselves, keep the strings short; they point into a registry per page.
const DIGITS = ['\u200b', '\u200c', '\u2060', '\u2061'] as const;
/** Opens and closes a marker: an invisible separator, not otherwise found in translations. */
const EDGE = '\u2063';
const DIGIT_CLASS = DIGITS.join('');
const MARKER = new RegExp(`${EDGE}([${DIGIT_CLASS}]+)${EDGE}`, 'g');

export interface MarkedKey {
  key: string;
  namespace: string;
}

export class KeyRegistry {
  private readonly byId: MarkedKey[] = [];
  private readonly ids = new Map<string, number>();

  idOf(key: MarkedKey): number {
    const name = `${key.namespace}\u0000${key.key}`;
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.byId.push(key) - 1;
      this.ids.set(name, id);
    }
    return id;
  }

  get(id: number): MarkedKey | undefined {
    return this.byId[id];
  }

  /** The text followed by the key's marker. */
  mark(text: string, key: MarkedKey): string {
    let n = this.idOf(key);
    let digits = '';
    do {
      digits = DIGITS[n % 4] + digits;
      n = Math.floor(n / 4);
    } while (n > 0);
    return `${text}${EDGE}${digits}${EDGE}`;
  }

  /** The keys marked in a text, and the text without its markers. */
  read(text: string): { keys: MarkedKey[]; text: string } {
    const keys: MarkedKey[] = [];
    if (!text.includes(EDGE)) return { keys, text };
    const clean = text.replace(MARKER, (_m, digits: string) => {
      let n = 0;
      for (const d of digits) n = n * 4 + DIGITS.indexOf(d as (typeof DIGITS)[number]);
      const key = this.get(n);
      if (key) keys.push(key);
      return '';
    });
    return { keys, text: clean };
  }
}

export const hasMarker = (text: string | null | undefined): boolean => !!text && text.includes(EDGE);

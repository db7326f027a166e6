// The fields of a glossary term as stored (one shape for the term views of
// terms.ts, the matcher's records and the file writers).
export interface GlossaryTermFields {
  id: number;
  term: string;
  description: string;
  partOfSpeech: string;
  forbidden: boolean;
  doNotTranslate: boolean;
  caseSensitive: boolean;
  abbreviation: boolean;
}

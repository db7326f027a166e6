// Which keys' texts the content model wrote, for a part of the service that
// keeps something derived from them outside the database: the translation
// memory's in-process index on the embedded database (src/memory/ngram-index.ts),
// which listens from the moment it is loaded, so before it can have built an
// index. The content model calls these; it imports none of its listeners.

export interface WrittenTextsListener {
  /** Keys whose base texts the write gate was given (whether it wrote them or not). */
  keysWritten(keyIds: readonly number[]): void;
  /** Another default language: every source text of a project changed at once. */
  sourceTextsReplaced(): void;
}

const listeners = new Set<WrittenTextsListener>();

/** Adds a listener; returns its removal. */
export function listenToWrittenTexts(listener: WrittenTextsListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called by the write gate with the keys of the base cells it was given. */
export function noteWrittenKeys(keyIds: readonly number[]): void {
  for (const listener of listeners) listener.keysWritten(keyIds);
}

/** Called when a project's default language changes. */
export function noteSourceTextsReplaced(): void {
  for (const listener of listeners) listener.sourceTextsReplaced();
}

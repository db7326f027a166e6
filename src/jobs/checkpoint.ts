// The progress an auto-translation job records after each committed batch,
// and the summary message built from it. Shared by the runner (run.ts), which
// writes it, and the final state changes (finish.ts), which need neither the
// other nor the runner.

export interface Checkpoint {
  sequence: number;
  /** Last key id whose batch is committed. */
  cursor?: number;
  total?: number;
  processed?: number;
  texts: number;
  characters: number;
  /** Translations the write gate refused: longer than their key's charactersLimit. */
  skippedOverLimit?: number;
  /** Keys not translated because they are locked (counted up front, plus any the write gate refused). */
  skippedLocked?: number;
  /** Texts the provider layer could not translate safely (lost placeholders, too large). */
  failedTexts?: number;
  /** The job's change (activity id): every batch records its cells in it, so the job can be reverted as one. */
  activityId?: string;
}

/** Summary message of a finished job (contract: number of texts and characters translated). */
export function summary(checkpoint: Checkpoint): string {
  const skipped = checkpoint.skippedOverLimit ? `; ${checkpoint.skippedOverLimit} not written because they exceed the key's characters limit` : '';
  const locked = checkpoint.skippedLocked ? `; ${checkpoint.skippedLocked} not written because their key is locked` : '';
  const failed = checkpoint.failedTexts ? `; ${checkpoint.failedTexts} left untranslated because the provider's answer lost a placeholder or the text was too large` : '';
  return `Translated ${checkpoint.texts} texts (${checkpoint.characters} characters)${skipped}${locked}${failed}`;
}

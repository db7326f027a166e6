// The editor's checks of a translation while it is typed: the quality checks
// of src/checks/ (the one home of every check) against the default language's
// text of the same key. One rule for both sides: the web console runs it while
// typing (web/ imports this file; it words each finding's messageText in its
// own language), editorRows runs it for the "with problems" filter.
import { runChecks, type CheckSettings, type Finding } from '../checks/index.js';

export interface CheckContext {
  /** The default language's text of the key ('' when none or when this is the default language). */
  source: string;
  charactersLimit: number | null;
  /** The default language; 'en' when not known. */
  sourceLanguage?: string;
  /** The language of the text; the default language when not known. */
  targetLanguage?: string;
  settings?: CheckSettings;
}

// Rendering a window of cells checks the same texts again and again.
const memo = new Map<string, Finding[]>();

/** The findings of a text, errors first; empty when there is none. */
export function checkFindings(text: string, context: CheckContext): Finding[] {
  const sourceLanguage = context.sourceLanguage ?? 'en';
  const targetLanguage = context.targetLanguage ?? sourceLanguage;
  const id = `${context.charactersLimit ?? ''}\u0001${sourceLanguage}\u0001${targetLanguage}\u0001${context.source}\u0001${text}\u0001${JSON.stringify(context.settings ?? {})}`;
  let findings = memo.get(id);
  if (!findings) {
    if (memo.size > 20_000) memo.clear();
    // The default language's own text: checked alone (limit, ICU syntax), as its own source.
    const source = context.source === '' ? text : context.source;
    findings = runChecks(
      {
        source,
        target: text,
        sourceLanguage,
        targetLanguage: context.source === '' ? sourceLanguage : targetLanguage,
        charactersLimit: context.charactersLimit,
      },
      context.settings,
    ).filter((f) => f.severity !== 'info');
    const rank = { error: 0, warning: 1, info: 2 };
    findings.sort((a, b) => rank[a.severity] - rank[b.severity]);
    memo.set(id, findings);
  }
  return findings;
}

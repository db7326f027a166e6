// The English texts of a job's message, one per message id (src/message-text.ts).
// A job's message is a list of parts joined by "; " (a summary: what was
// translated, then what was not and why); each part is stored as data beside
// the sentence (Job.messageText), so the console words it in its own language
// (web/src/locales/*.json, `server.jobs`: the English file has these texts as
// they are here, test/unit/message-texts.test.ts). A message without a part
// here (a provider's own error) has no data: a client shows the sentence.
import { wordInEnglish, type MessageParam, type MessageText } from '../message-text.js';

export const JOB_MESSAGES = {
  started: 'OK',
  cancelled: 'Cancelled',
  'given-up': 'Job given up after {{attempts}} attempts',
  skipped: 'Skipped: {{reason}}',
  // The summary's parts (summary() in checkpoint.ts). The contract words the first as "Translated N texts".
  translated_one: 'Translated {{count, number}} texts ({{characters, number}} characters)',
  translated_other: 'Translated {{count, number}} texts ({{characters, number}} characters)',
  'from-memory': '{{count, number}} of them from the translation memory',
  'no-memory-match': '{{count, number}} without a memory match at the score asked for',
  'glossary-terms': 'the provider was given {{count, number}} glossary terms found in the texts',
  'over-limit': "{{count, number}} not written because they exceed the key's characters limit",
  locked: '{{count, number}} not written because their key is locked',
  'model-failed':
    "{{count, number}} left untranslated because the model's answer failed the checks twice ({{failures}})",
  'provider-failed':
    "{{count, number}} left untranslated because the provider's answer lost a placeholder or the text was too large",
  'not-published': 'AUTO_PUBLISH failed{{code}}: {{reason}}; the translations are committed',
} as const satisfies Record<string, string>;

export type JobMessageId = keyof typeof JOB_MESSAGES extends infer K
  ? K extends `${infer Base}_${'one' | 'other'}`
    ? Base
    : K
  : never;

export const jobPart = (id: JobMessageId, params: Record<string, MessageParam> = {}): MessageText => ({ id, params });

/** A job's message: its parts as data, and the sentence (the parts in English, joined by "; "). */
export interface JobMessage {
  message: string;
  parts: MessageText[];
}

export function jobMessage(...parts: MessageText[]): JobMessage {
  return { message: parts.map((p) => wordInEnglish(JOB_MESSAGES, p)).join('; '), parts };
}

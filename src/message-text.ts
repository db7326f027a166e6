// A message the service words for people, as data: the id of its text and the
// values put into it. The service still sends its English sentence (REST's
// `msg`, a finding's `message`, a job's `message`); beside it, GraphQL gives
// this (`messageText`, an error's `extensions.messageText`), so that a client
// words the message in its own language, its own text per id (the console:
// web/src/locales/*.json, `server.*`), and falls back to the English sentence
// for an id it does not know. Pure: the web console imports this module too.

/** A value put into a message: a name, a number, or a message of its own (a mark's name). */
export type MessageParam = string | number | MessageText;

export interface MessageText {
  /** The text's id, e.g. `markup-tags.missing` (the console's key `server.checks.markup-tags.missing`). */
  id: string;
  /** The values of its `{{name}}` placeholders; `count` chooses the plural form (`…_one`, `…_other`). */
  params: Record<string, MessageParam>;
}

/**
 * The English sentence of a message from a catalogue of templates (`{{name}}` placeholders, as i18next
 * writes them, `{{name, number}}` for a figure; plural forms as `id_one` and `id_other`, chosen by `count`).
 */
export function wordInEnglish(templates: Readonly<Record<string, string>>, text: MessageText): string {
  const count = text.params.count;
  const template =
    (typeof count === 'number' ? templates[`${text.id}_${count === 1 ? 'one' : 'other'}`] : undefined) ??
    templates[text.id];
  if (template === undefined) throw new Error(`No English text for the message ${text.id}`);
  // `{{count, number}}`: formatted by a client in its language; the English sentence has the plain figure.
  return template.replace(/\{\{(\w+)(?:, *number)?\}\}/g, (_, name: string) => {
    const value = text.params[name];
    if (value === undefined) throw new Error(`The message ${text.id} has no value for {{${name}}}`);
    return typeof value === 'object' ? wordInEnglish(templates, value) : String(value);
  });
}

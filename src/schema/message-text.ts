// A message as data (src/message-text.ts): beside the English sentences the
// service sends (a finding's or a job's `message`), for a client that words
// them in its own language.
import { builder } from '../builder.js';
import type { MessageText } from '../message-text.js';

export const MessageTextType = builder.objectRef<MessageText>('MessageText').implement({
  description:
    'A message as data, for a client that words it in its own language: the id of its text and the values put into it. The English sentence is the `message` beside it; an id a client does not know is worded by that sentence.',
  fields: (t) => ({
    id: t.exposeString('id', {
      description: 'The text, e.g. `markup-tags.missing` (a quality check and its message).',
    }),
    params: t.field({
      type: 'JSON',
      description:
        'Name → value of the placeholders: a string, a number, or a message of its own ({id, params}); `count` chooses a plural form.',
      resolve: (m) => m.params,
    }),
  }),
});

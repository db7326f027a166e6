import { builder } from '../builder.js';

export const LanguageType = builder.prismaObject('Language', {
  description: 'A language of a project.',
  fields: (t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    isDefault: t.exposeBoolean('isDefault'),
    order: t.exposeInt('order'),
  }),
});

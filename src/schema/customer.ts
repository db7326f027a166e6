import { builder } from '../builder.js';

export const CustomerType = builder.prismaObject('Customer', {
  description: 'A customer: the owner of customer-specific translations.',
  fields: (t) => ({
    key: t.exposeString('key'),
    description: t.exposeString('description'),
  }),
});

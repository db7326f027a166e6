// Self-service sign-up (ALLOW_SIGNUP=true): an account and its first personal token.
import { builder } from '../builder.js';
import { signUp } from '../accounts/accounts.js';

const SignUpResultType = builder.objectRef<{ email: string; personalToken: string }>('SignUpResult').implement({
  fields: (t) => ({
    email: t.exposeString('email'),
    personalToken: t.exposeString('personalToken', { description: 'Shown once: only its digest is stored.' }),
  }),
});

builder.mutationFields((t) => ({
  signUp: t.field({
    type: SignUpResultType,
    description:
      'Creates an account on the default plan when the operator allows sign-up (ALLOW_SIGNUP=true); FORBIDDEN otherwise.',
    args: {
      email: t.arg.string({ required: true }),
      password: t.arg.string({ required: true, description: 'At least 8 characters.' }),
      name: t.arg.string({ required: false, description: 'Display name, at most 200 characters.' }),
    },
    resolve: (_root, args, ctx) =>
      signUp(args, { allowSignup: ctx.config.allowSignup, defaultPlan: ctx.config.defaultPlan }),
  }),
}));

// The English texts of the refusals people meet most (signing in, keys,
// texts, languages, projects, teams, publishing), one per message id
// (src/message-text.ts). A refusal thrown with said(id, params) carries its id
// and values in GraphQL's extensions.messageText beside the English message,
// so the console words it in its own language (web/src/locales/*.json,
// `server.errors`: the English file has these texts as they are here,
// test/unit/message-texts.test.ts). Other refusals are worded by their code
// there, with the English message.
export const ERROR_MESSAGES = {
  // Parts of other messages.
  key: "key '{{key}}'",
  'key-in-namespace': "key '{{key}}' in namespace '{{namespace}}'",
  // Signing in and accounts.
  'wrong-sign-in': 'Wrong email or password',
  'too-many-sign-ins': 'Too many failed sign-ins; retry in {{seconds}} s',
  'csrf-missing': 'A change signed in by session needs the X-CSRF-Token header (the lms_csrf cookie of the session)',
  'email-invalid': 'email must be an e-mail address',
  'password-too-short': '{{field}} must have at least 8 characters',
  'current-password-wrong': 'currentPassword is wrong',
  'account-exists': 'An account with e-mail {{email}} already exists',
  // Projects and access.
  'project-not-found': 'Project {{project}} not found',
  'name-required': 'name is required and must be a non-empty string',
  'name-too-long': 'name must have at most {{max}} characters',
  'plan-projects': 'The {{plan}} plan allows at most {{max}} projects',
  'role-forbids': 'The {{role}} role does not allow {{permission}} in this project',
  'role-forbids-review':
    'The {{role}} role without the review permission does not allow {{permission}} in this project',
  'translator-languages': 'This translator may write only {{allowed}}; not {{refused}}',
  'api-key-cannot': 'A project API key cannot do this ({{permission}}); use an account credential of a project member',
  // Keys and texts.
  'key-required': '{{field}} is required and must not be empty',
  'key-exists': '{{key}} already exists',
  'key-not-found': '{{key}} not found',
  'key-locked': '{{key}} is locked; unlock it (lock: false) to modify it',
  'texts-locked': '{{key}} is locked; its translations cannot be changed',
  'over-characters-limit':
    'text has {{length, number}} characters, more than the charactersLimit of {{limit, number}} of {{key}}',
  'changed-since-read': "{{key}} in '{{language}}' changed since it was read",
  // Languages and customers.
  'language-exists': "language '{{language}}' already exists",
  'language-not-found': "language '{{language}}' not found",
  'only-language': "language '{{language}}' is the only language of the project; a project needs at least one language",
  'customer-exists': "customer '{{customer}}' already exists",
  'customer-not-found': "customer '{{customer}}' not found",
  // Teams.
  'already-member': '{{email}} is already a member of this project',
  'not-member': '{{email}} is not a member of this project',
  'owner-role': "The owner's role changes only by transferring ownership to another member",
  'last-owner-removed': 'The last owner cannot be removed: transfer ownership first',
  'last-owner-leaves': 'The last owner cannot leave the project: transfer ownership first',
  'invitation-invalid': 'This invitation link is not valid (it may have been reset or withdrawn)',
  'invitation-disabled': 'This invitation link has been disabled',
  'invitation-used': 'This invitation link has already been used',
  'invitation-expired': 'This invitation link has expired',
  'invitation-for-other': 'This invitation was sent to {{email}}; sign in as that account to accept it',
  // Publishing.
  'environment-exists': 'Environment {{environment}} already exists',
  'environment-not-found': 'Environment {{environment}} not found',
  'publication-running':
    'A publication to {{environment}} is running for this project; publish again when it has finished',
  'too-many-publications': 'Too many publications: at most {{limit}} per minute per project; retry in {{seconds}} s',
  'quality-gate-errors_one':
    '{{environment}} requires no quality-check errors: {{count}} error to fix or dismiss first ({{link}})',
  'quality-gate-errors_other':
    '{{environment}} requires no quality-check errors: {{count}} errors to fix or dismiss first ({{link}})',
  'quality-gate-pending_one':
    '{{environment}} requires no quality-check errors: the texts of {{count}} key are still being checked; publish again in a moment',
  'quality-gate-pending_other':
    '{{environment}} requires no quality-check errors: the texts of {{count}} keys are still being checked; publish again in a moment',
} as const satisfies Record<string, string>;

export type ErrorMessageId = keyof typeof ERROR_MESSAGES extends infer K
  ? K extends `${infer Base}_${'one' | 'other'}`
    ? Base
    : K
  : never;

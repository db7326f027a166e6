// The permission matrix: what each role of a project member may do, and which
// permission each GraphQL operation needs. The access check
// (src/projects/access.ts) decides by this table and nothing else; docs/teams.md
// prints it; tests iterate over it.
import type { MemberRole } from '../generated/prisma/enums.js';

export const ROLES = ['OWNER', 'ADMIN', 'TRANSLATOR', 'VIEWER'] as const satisfies readonly MemberRole[];
export type Role = (typeof ROLES)[number];

/** The classes of operations a project has. */
export const PERMISSIONS = [
  /** Read the languages, the keys with their texts and screenshots, and the live changes of texts: what a translator sees of a key (all an in-context token reads). */
  'READ_TEXTS',
  /** Read the rest of the project: customers, environments, jobs, members, activity, settings one may see. */
  'READ',
  /** Export files (a read that produces a download). */
  'EXPORT',
  /** Write translation text (a translator: in its languages only). */
  'TRANSLATE',
  /** Set the review status (a translator: only with canReview, in its languages). */
  'REVIEW',
  /** Create, rename, update and delete keys; purge. */
  'KEYS',
  /** Upload screenshots and mark keys on them (deleting a screenshot or a mark is KEYS). */
  'SCREENSHOTS',
  'LANGUAGES',
  'CUSTOMERS',
  /** Import files and v1 bulk imports (they create keys and languages). */
  'IMPORT',
  /** Start and cancel auto-translation jobs. */
  'JOBS',
  'PUBLISH',
  /** Create, update and reorder hosting environments. */
  'ENVIRONMENTS',
  /** Project settings: its name, provider API keys; reading the project API key. */
  'SETTINGS',
  /** Replace the project API key (a person's credential: the key cannot replace itself). */
  'ROTATE_API_KEY',
  /** Invite, change roles, remove members; role links. */
  'MEMBERS',
  /** Share the project's translation memory with shared memories, attach them, import TMX files into it. */
  'MEMORY',
  /** Add, change and delete glossary terms, import glossary files, link the project to a shared glossary. */
  'GLOSSARY',
  /** Create, change, enable and delete automation rules; revert an automation run. */
  'AUTOMATIONS',
  /** Connect the project to a Git repository, pull from it and push to it (docs/git-sync.md): it imports and exports through the connection's settings. */
  'GIT_SYNC',
  /** Hand the owner role to another member (the owner becomes an administrator). */
  'TRANSFER_OWNERSHIP',
  'DELETE_PROJECT',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ALL_BUT = (...excluded: Permission[]): readonly Permission[] => PERMISSIONS.filter((p) => !excluded.includes(p));

/**
 * Permissions per role. A translator's TRANSLATE and REVIEW are further
 * limited by its languages, and REVIEW by its canReview flag (see
 * `allows`).
 */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  OWNER: PERMISSIONS,
  ADMIN: ALL_BUT('TRANSFER_OWNERSHIP', 'DELETE_PROJECT'),
  TRANSLATOR: ['READ_TEXTS', 'READ', 'EXPORT', 'TRANSLATE', 'REVIEW'],
  VIEWER: ['READ_TEXTS', 'READ', 'EXPORT'],
};

/**
 * A project API key keeps the contract's full project access: everything
 * but the account matters (members, deleting the project) and replacing
 * itself, which need a person's credential.
 */
export const API_KEY_PERMISSIONS: readonly Permission[] = ALL_BUT(
  'MEMBERS',
  'ROTATE_API_KEY',
  'MEMORY',
  'TRANSFER_OWNERSHIP',
  'DELETE_PROJECT',
);

/**
 * An in-context token (docs/in-context.md) reads texts (languages, keys with
 * their texts and screenshots, live changes) and writes texts, only in its
 * languages when it names some; with `capture` it also uploads screenshots and
 * marks keys on them. Nothing else: not the project's members, activity, jobs
 * or settings, no review status, no keys.
 */
export const IN_CONTEXT_PERMISSIONS: readonly Permission[] = ['READ_TEXTS', 'TRANSLATE'];
export const IN_CONTEXT_CAPTURE_PERMISSIONS: readonly Permission[] = [...IN_CONTEXT_PERMISSIONS, 'SCREENSHOTS'];

/** What the access check knows about a member. */
export interface MemberGrant {
  role: Role;
  /** Language ids a translator may write; empty: every language. */
  languageIds: readonly number[];
  canReview: boolean;
}

/** Whether a member's role grants a permission (languages are checked separately). */
export function allows(grant: MemberGrant, permission: Permission): boolean {
  if (!ROLE_PERMISSIONS[grant.role].includes(permission)) return false;
  if (permission === 'REVIEW' && grant.role === 'TRANSLATOR') return grant.canReview;
  return true;
}

/** Whether the grant limits writes to some languages. */
export function languageScoped(grant: MemberGrant): boolean {
  return grant.role === 'TRANSLATOR' && grant.languageIds.length > 0;
}

/**
 * The permission each GraphQL root field needs (the REST routes execute these
 * operations, so they need the same). Account-level fields (projects,
 * createProject, invitation acceptance) are not project operations and are
 * not listed. A unit test checks this list against the schema.
 */
export const OPERATION_PERMISSIONS = {
  // queries
  project: 'READ',
  languages: 'READ_TEXTS',
  customers: 'READ',
  customer: 'READ',
  translationKeys: 'READ_TEXTS',
  translationKeyPage: 'READ_TEXTS',
  translationKey: 'READ_TEXTS',
  translations: 'READ_TEXTS',
  translationCount: 'READ_TEXTS',
  environments: 'READ',
  environment: 'READ',
  environmentStatus: 'READ',
  publications: 'READ',
  jobs: 'READ',
  job: 'READ',
  providerApiKeys: 'SETTINGS',
  autoTranslationSettings: 'READ',
  members: 'READ',
  roleLinks: 'MEMBERS',
  invitations: 'MEMBERS',
  activity: 'READ',
  activityEntry: 'READ',
  translationHistory: 'READ',
  historyRetentionDays: 'READ',
  webhooks: 'SETTINGS',
  webhook: 'SETTINGS',
  webhookDeliveries: 'SETTINGS',
  editorRows: 'READ',
  memorySuggestions: 'READ',
  screenshots: 'READ_TEXTS',
  screenshot: 'READ_TEXTS',
  translationContext: 'READ',
  llmProviderSettings: 'SETTINGS',
  glossaries: 'READ',
  qualityFindings: 'READ',
  qualityChecks: 'READ',
  glossaryTerms: 'READ',
  glossaryTermHistory: 'READ',
  glossaryMatches: 'READ',
  automationRules: 'READ',
  automationRule: 'READ',
  automationRuns: 'READ',
  gitConnection: 'GIT_SYNC',
  gitSyncRuns: 'GIT_SYNC',
  inContextTokens: 'SETTINGS',
  inContextOrigins: 'SETTINGS',
  // subscriptions
  translationChanges: 'READ_TEXTS',
  projectActivity: 'READ',
  jobProgress: 'READ',
  projectJobEvents: 'READ',
  publicationProgress: 'READ',
  // mutations
  setProjectMemoryLink: 'MEMORY',
  importTranslationMemory: 'MEMORY',
  exportTranslationMemory: 'EXPORT',
  setQualityChecks: 'SETTINGS',
  dismissQualityFinding: 'TRANSLATE',
  restoreQualityFinding: 'TRANSLATE',
  createGlossaryTerm: 'GLOSSARY',
  updateGlossaryTerm: 'GLOSSARY',
  deleteGlossaryTerm: 'GLOSSARY',
  importGlossary: 'GLOSSARY',
  exportGlossary: 'EXPORT',
  setProjectGlossaryLink: 'GLOSSARY',
  createAutomationRule: 'AUTOMATIONS',
  updateAutomationRule: 'AUTOMATIONS',
  setAutomationRuleEnabled: 'AUTOMATIONS',
  deleteAutomationRule: 'AUTOMATIONS',
  revertAutomationRun: 'AUTOMATIONS',
  reportClientError: 'READ',
  exportTranslations: 'EXPORT',
  updateTranslation: 'TRANSLATE',
  updateTranslations: 'TRANSLATE',
  importTranslations: 'IMPORT',
  importFile: 'IMPORT',
  previewImport: 'IMPORT',
  purgeTranslations: 'KEYS',
  createTranslationKey: 'KEYS',
  updateTranslationKey: 'KEYS',
  deleteTranslationKey: 'KEYS',
  deleteTranslationKeys: 'KEYS',
  createLanguage: 'LANGUAGES',
  updateLanguage: 'LANGUAGES',
  deleteLanguage: 'LANGUAGES',
  setLanguageOrder: 'LANGUAGES',
  createCustomer: 'CUSTOMERS',
  updateCustomer: 'CUSTOMERS',
  deleteCustomer: 'CUSTOMERS',
  autoTranslate: 'JOBS',
  cancelJob: 'JOBS',
  publishEnvironment: 'PUBLISH',
  createEnvironment: 'ENVIRONMENTS',
  setEnvironmentQualityGate: 'ENVIRONMENTS',
  updateEnvironment: 'ENVIRONMENTS',
  setEnvironmentOrder: 'ENVIRONMENTS',
  setProviderApiKey: 'SETTINGS',
  setTranslationContext: 'SETTINGS',
  setLlmProviderSettings: 'SETTINGS',
  suggestTranslation: 'TRANSLATE',
  rewriteTranslation: 'TRANSLATE',
  setAutoTranslationSettings: 'SETTINGS',
  resetAutoTranslationSettings: 'SETTINGS',
  renameProject: 'SETTINGS',
  rotateProjectApiKey: 'ROTATE_API_KEY',
  revertChange: 'IMPORT',
  revertTranslation: 'TRANSLATE',
  setHistoryRetention: 'SETTINGS',
  createWebhook: 'SETTINGS',
  updateWebhook: 'SETTINGS',
  deleteWebhook: 'SETTINGS',
  testWebhook: 'SETTINGS',
  inviteMember: 'MEMBERS',
  cancelInvitation: 'MEMBERS',
  resetRoleLink: 'MEMBERS',
  disableRoleLink: 'MEMBERS',
  updateMember: 'MEMBERS',
  removeMember: 'MEMBERS',
  leaveProject: 'READ',
  transferOwnership: 'TRANSFER_OWNERSHIP',
  deleteProject: 'DELETE_PROJECT',
  connectGitRepository: 'GIT_SYNC',
  updateGitConnection: 'GIT_SYNC',
  rotateGitWebhookSecret: 'GIT_SYNC',
  disconnectGitRepository: 'GIT_SYNC',
  pullFromGit: 'GIT_SYNC',
  pushToGit: 'GIT_SYNC',
  createInContextToken: 'SETTINGS',
  revokeInContextToken: 'SETTINGS',
  setInContextOrigins: 'SETTINGS',
  uploadScreenshot: 'SCREENSHOTS',
  deleteScreenshot: 'KEYS',
  linkScreenshotKey: 'SCREENSHOTS',
  updateScreenshotLink: 'KEYS',
  unlinkScreenshotKey: 'KEYS',
} as const satisfies Record<string, Permission>;
export type ProjectOperation = keyof typeof OPERATION_PERMISSIONS;

/** Fields whose permission depends on the input (see the resolver): the base one is listed above. */
export const INPUT_DEPENDENT = {
  updateTranslation: 'REVIEW when reviewStatus is given; TRANSLATE in the language written',
  updateTranslations: 'KEYS too with CREATE_KEY_IF_NOT_FOUND; TRANSLATE in every language written',
  revertTranslation: 'TRANSLATE in the language of the cell',
  dismissQualityFinding: 'TRANSLATE in the language of the cell',
  publishEnvironment: 'the project owner only with overrideQualityGate',
  restoreQualityFinding: 'TRANSLATE in the language of the cell',
} as const;

/** The permission a project operation needs. */
export function need(operation: ProjectOperation): Permission {
  return OPERATION_PERMISSIONS[operation];
}

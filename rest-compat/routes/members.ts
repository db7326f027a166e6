// Project members over REST (personal token), for scripts that manage teams
// where the contract's project list lives (/api/v2/projects/{projectToken}/…).
// The GraphQL operations decide everything (roles: docs/teams.md).
import { bodyEnum, bodyObject } from '../params.js';
import { defineRoute, type JsonSchema, type RestRoute } from '../route.js';

const GRANT_BODY: Record<string, JsonSchema> = {
  role: { type: 'string', enum: ['admin', 'translator', 'viewer'], description: 'Any letter case' },
  languages: {
    type: 'array',
    items: { type: 'string' },
    description: "A translator's languages (default: every language)",
  },
  canReview: { type: 'boolean', description: 'A translator may set REVIEWED' },
};

const MEMBER_FIELDS = 'email name role languages canReview joinedAt';

/** A grant from the body: role (any letter case), languages, canReview; the operation's types check their shape. */
function grantOf(body: unknown, schema: Parameters<RestRoute['toVariables']>[1]) {
  const { role, languages, canReview } = bodyObject(body);
  return { role: bodyEnum(schema, 'MemberRole', 'role', role), languages, canReview };
}

export const routes: RestRoute[] = [
  defineRoute<{ members: unknown[] }>({
    method: 'GET',
    path: '/api/v2/projects/:projectToken/members',
    auth: 'personalToken',
    summary: 'List the members of a project with their roles and languages',
    document: `query RestMembers($projectToken: String!) { members(projectToken: $projectToken) { ${MEMBER_FIELDS} } }`,
    toVariables: (req) => ({ projectToken: req.params.projectToken }),
    toResponse: (data) => ({ data: data.members }),
  }),
  defineRoute<{ inviteMember: { invitation: unknown; link: string | null; emailSent: boolean } }>({
    method: 'POST',
    path: '/api/v2/projects/:projectToken/invitations',
    auth: 'personalToken',
    summary: 'Invite an e-mail address with a role (the link is e-mailed, or returned when SMTP is not configured)',
    body: {
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, ...GRANT_BODY },
      required: ['email', 'role'],
    },
    response: {
      data: (selected) => {
        const invitation = (selected.properties as Record<string, JsonSchema>).invitation as JsonSchema & {
          anyOf?: JsonSchema[];
        };
        const object = (invitation.anyOf?.find((s) => s.type === 'object') ?? invitation) as JsonSchema;
        const props = selected.properties as Record<string, JsonSchema>;
        return {
          type: 'object',
          properties: { ...(object.properties as object), link: props.link!, emailSent: props.emailSent! },
          required: [...((object.required as string[]) ?? []), 'link', 'emailSent'],
          additionalProperties: false,
        };
      },
    },
    document: `mutation RestInvite($projectToken: String!, $email: String!, $role: MemberRole!, $languages: [String!], $canReview: Boolean) {
      inviteMember(projectToken: $projectToken, email: $email, role: $role, languages: $languages, canReview: $canReview) {
        invitation { id email role languages canReview expiresAt } link emailSent
      }
    }`,
    toVariables: (req, schema) => ({
      projectToken: req.params.projectToken,
      email: bodyObject(req.body).email,
      ...grantOf(req.body, schema),
    }),
    toResponse: (data) => ({
      data: {
        ...(data.inviteMember.invitation as object),
        link: data.inviteMember.link,
        emailSent: data.inviteMember.emailSent,
      },
    }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/v2/projects/:projectToken/members/:email',
    auth: 'personalToken',
    summary: "Change a member's role (and a translator's languages and review permission)",
    body: { type: 'object', properties: GRANT_BODY, required: ['role'] },
    response: { data: null },
    document: `mutation RestUpdateMember($projectToken: String!, $email: String!, $role: MemberRole!, $languages: [String!], $canReview: Boolean) {
      updateMember(projectToken: $projectToken, email: $email, role: $role, languages: $languages, canReview: $canReview)
    }`,
    toVariables: (req, schema) => ({
      projectToken: req.params.projectToken,
      email: req.params.email,
      ...grantOf(req.body, schema),
    }),
    toResponse: () => ({}),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/v2/projects/:projectToken/members/:email',
    auth: 'personalToken',
    summary: 'Remove a member (the last owner cannot be removed)',
    response: { data: null },
    document:
      'mutation RestRemoveMember($projectToken: String!, $email: String!) { removeMember(projectToken: $projectToken, email: $email) }',
    toVariables: (req) => ({ projectToken: req.params.projectToken, email: req.params.email }),
    toResponse: () => ({}),
  }),
];

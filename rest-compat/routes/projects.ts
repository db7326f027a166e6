// /api/v2/projects (personal token) and /api/v1/projects (basic credentials):
// the same two operations, with the auth scheme of each version;
// /api/v2/projects/{projectToken} (personal token): rename, delete, replace
// the API key; and /api/v2/project, the API key's own project.
import { bodyObject, enumValue, queryString } from '../params.js';
import { defineRoute, type RestRoute } from '../route.js';

const PROJECT_FIELDS = /* GraphQL */ `
  fragment RestProject on Project {
    name
    languages { key name isDefault order }
    customers { key description }
    projectToken
    apiKey
    keys
    unpublishedChanges
    translatedPercentage
    translatedKeysByLanguage
  }`;

const LIST = `query RestListProjects($sort: ProjectSort) { projects(sort: $sort) { ...RestProject } } ${PROJECT_FIELDS}`;
const CREATE = `mutation RestCreateProject($name: String!) { createProject(name: $name) { ...RestProject } } ${PROJECT_FIELDS}`;

function projectRoutes(version: 'v1' | 'v2', auth: 'basic' | 'personalToken'): RestRoute[] {
  return [
    defineRoute<{ projects: unknown[] }>({
      method: 'GET',
      path: `/api/${version}/projects`,
      auth,
      summary: 'List the projects of the authenticated account',
      query: [{ name: 'sort', enum: 'ProjectSort', lowerCase: true, default: 'alphabetical' }],
      document: LIST,
      toVariables: (req, schema) => ({
        sort: enumValue(schema, 'ProjectSort', 'sort', queryString(req.query, 'sort')),
      }),
      toResponse: (data) => ({ data: data.projects }),
    }),
    defineRoute<{ createProject: unknown }>({
      method: 'POST',
      path: `/api/${version}/projects`,
      auth,
      summary: 'Create a project',
      body: { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] },
      document: CREATE,
      toVariables: (req) => {
        // The domain gives the message for a missing or empty name; the operation's type, for another type.
        return { name: bodyObject(req.body).name ?? '' };
      },
      toResponse: (data) => ({ data: data.createProject }),
    }),
  ];
}

// A project's settings where the contract's project list lives: the GraphQL
// operations decide who may (docs/teams.md: SETTINGS, ROTATE_API_KEY, DELETE_PROJECT).
const RENAME = `mutation RestRenameProject($projectToken: String!, $name: String!) { renameProject(projectToken: $projectToken, name: $name) { ...RestProject } } ${PROJECT_FIELDS}`;

const settingsRoutes: RestRoute[] = [
  defineRoute<{ renameProject: unknown }>({
    method: 'PATCH',
    path: '/api/v2/projects/:projectToken',
    auth: 'personalToken',
    summary: 'Rename a project (owner and administrators)',
    body: {
      type: 'object',
      properties: { name: { type: 'string', minLength: 1, maxLength: 200 } },
      required: ['name'],
    },
    document: RENAME,
    toVariables: (req) => {
      return { projectToken: req.params.projectToken, name: bodyObject(req.body).name ?? '' };
    },
    toResponse: (data) => ({ data: data.renameProject }),
  }),
  defineRoute<{ deleteProject: boolean }>({
    method: 'DELETE',
    path: '/api/v2/projects/:projectToken',
    auth: 'personalToken',
    summary: 'Delete a project with all its content and published files (owner only)',
    response: { data: null },
    document: `mutation RestDeleteProject($projectToken: String!) { deleteProject(projectToken: $projectToken) }`,
    toVariables: (req) => ({ projectToken: req.params.projectToken }),
    toResponse: () => ({}),
  }),
  defineRoute<{ rotateProjectApiKey: unknown }>({
    method: 'POST',
    path: '/api/v2/projects/:projectToken/api-key/rotate',
    auth: 'personalToken',
    summary: 'Replace the project API key (owner and administrators); the old key is refused from now on',
    description:
      'The answer holds the new key. Requests with the old key get 403 at once, on every instance of the service.',
    document: `mutation RestRotateApiKey($projectToken: String!) { rotateProjectApiKey(projectToken: $projectToken) { projectToken apiKey } }`,
    toVariables: (req) => ({ projectToken: req.params.projectToken }),
    toResponse: (data) => ({ data: data.rotateProjectApiKey }),
  }),
];

// GET /api/v2/project (project API key): the API key's own project with every
// field the vendor's command-line client reads (status, publish, pull, purge).
// A missing field crashes that client, so each one is always present (null
// where unknown).
const OWN_PROJECT = /* GraphQL */ `
  query RestOwnProject {
    project {
      ...RestProject
      environments { key name }
      namespaces { name }
      lastActivityAt
      lastEditedAt
      hostingResources { path key language namespace customerId }
    }
  } ${PROJECT_FIELDS}`;

const ownProject = defineRoute<{ project: Record<string, unknown> }>({
  method: 'GET',
  path: '/api/v2/project',
  auth: 'apiKey',
  summary: "The API key's own project, with environments, namespaces, activity times and hosting resources",
  document: OWN_PROJECT,
  toVariables: () => ({}),
  toResponse: (data) => ({ data: data.project }),
});

export const routes: RestRoute[] = [
  ...projectRoutes('v2', 'personalToken'),
  ...projectRoutes('v1', 'basic'),
  ...settingsRoutes,
  ownProject,
];

// A project's API-key client for API tests: REST calls with the
// X-Service-Token header (answers checked against the envelope), GraphQL
// calls, and the project counters as the projects list reports them.
import { envelope, type TestAccount, type TestService } from './service.js';

export interface ApiAnswer {
  status: number;
  msg: string;
  data?: any;
}

export interface ProjectApi {
  apiKey: string;
  projectToken: string;
  call(method: string, url: string, payload?: unknown): Promise<ApiAnswer>;
  get(url: string): Promise<ApiAnswer>;
  post(url: string, payload?: unknown): Promise<ApiAnswer>;
  patch(url: string, payload?: unknown): Promise<ApiAnswer>;
  delete(url: string, payload?: unknown): Promise<ApiAnswer>;
  gql(query: string, variables?: Record<string, unknown>): Promise<{ data?: any; errors?: any[] }>;
  /** keys, translatedPercentage, translatedKeysByLanguage, unpublishedChanges of the project. */
  counters(): Promise<{
    keys: number;
    translatedPercentage: number;
    translatedKeysByLanguage: Record<string, number>;
    unpublishedChanges: number;
  }>;
}

export async function projectApi(service: TestService, account: TestAccount, name = 'Content'): Promise<ProjectApi> {
  const project = await account.project(name);
  const call = async (method: string, url: string, payload?: unknown): Promise<ApiAnswer> => {
    const res = await service.request({ method, url, headers: { 'x-service-token': project.apiKey }, payload });
    const body = envelope(res);
    return { status: res.statusCode, msg: body.msg, ...('data' in body ? { data: body.data } : {}) };
  };
  return {
    apiKey: project.apiKey,
    projectToken: project.projectToken,
    call,
    get: (url) => call('GET', url),
    post: (url, payload) => call('POST', url, payload ?? {}),
    patch: (url, payload) => call('PATCH', url, payload ?? {}),
    delete: (url, payload) => call('DELETE', url, payload),
    gql: async (query, variables) => {
      const res = await service.request({
        method: 'POST',
        url: '/graphql',
        headers: { 'x-service-token': project.apiKey, 'content-type': 'application/json' },
        payload: { query, variables },
      });
      return res.json();
    },
    counters: async () => {
      const res = await service.request({ url: '/api/v2/projects', headers: { authorization: account.token } });
      const found = envelope(res).data.find((p: any) => p.projectToken === project.projectToken);
      const { keys, translatedPercentage, translatedKeysByLanguage, unpublishedChanges } = found;
      return { keys, translatedPercentage, translatedKeysByLanguage, unpublishedChanges };
    },
  };
}

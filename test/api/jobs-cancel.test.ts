// A job that no worker holds is cancelled at once (this service runs without a
// worker, so the job stays unclaimed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { readTranslations, seedTranslations } from '../support/content.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ worker: false });
});
afterAll(() => service.close());

describe('cancelling a job no worker holds', () => {
  it('is CANCELLED at once and never runs', async () => {
    const project = await (await service.account()).project('idle');
    await seedTranslations(service.db, {
      projectToken: project.projectToken,
      translations: { en: { a: 'A' }, de: {} },
    });
    const headers = { 'x-service-token': project.apiKey, 'content-type': 'application/json' };
    const job = envelope(
      await service.request({
        method: 'POST',
        url: '/api/v1/jobs/auto-translate',
        headers,
        payload: { translationProvider: 'PSEUDO', targetProjectLanguage: 'de', targetLanguage: 'de' },
      }),
    ).data;
    const res = await service.request({
      method: 'POST',
      url: '/graphql',
      headers,
      payload: {
        query: 'mutation($id: String!) { cancelJob(jobId: $id) { state message } }',
        variables: { id: job.jobId },
      },
    });
    expect(res.json().data.cancelJob).toEqual({ state: 'CANCELLED', message: 'Cancelled' });
    expect(envelope(await service.request({ url: `/api/v1/jobs/${job.jobId}`, headers })).data.state).toBe('CANCELLED');
    expect(await readTranslations(service.db, project.projectToken)).toEqual({ en: { a: 'A' } });
    const again = await service.request({
      method: 'POST',
      url: '/graphql',
      headers,
      payload: { query: 'mutation($id: String!) { cancelJob(jobId: $id) { state } }', variables: { id: job.jobId } },
    });
    expect(again.json().data.cancelJob.state).toBe('CANCELLED');
  });
});

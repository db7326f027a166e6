// The admin API: the command line's operations (src/admin/operations.ts) on
// the running service, for when the CLI cannot open the database itself (the
// embedded database allows one process). Authenticated by ADMIN_TOKEN as
// `Authorization: Bearer <token>`; off when ADMIN_TOKEN is not set.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config.js';
import { AppError, HTTP_STATUS, badRequest } from '../errors.js';
import { operatorTokenMatches } from '../auth/principal.js';
import { createAccount, createToken, listPlans, savePlan, setPlan } from '../admin/operations.js';
import { sendEnvelope } from './envelope.js';

type Body = Record<string, unknown>;

function text(body: Body, name: string, required = true): string | undefined {
  const value = body[name];
  if (value === undefined || value === null || value === '') {
    if (required) throw badRequest(`${name} is required`);
    return undefined;
  }
  if (typeof value !== 'string') throw badRequest(`${name} must be a string`);
  return value;
}

function limit(body: Body, name: string): number | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number') throw badRequest(`${name} must be a number or null (unlimited)`);
  return value;
}

function objectBody(body: unknown): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('The request body must be a JSON object');
  return body as Body;
}

async function answer(reply: FastifyReply, run: () => Promise<unknown>): Promise<FastifyReply> {
  try {
    return sendEnvelope(reply, 200, 'OK', await run());
  } catch (error) {
    if (error instanceof AppError) return sendEnvelope(reply, HTTP_STATUS[error.code], error.message);
    throw error;
  }
}

export function registerAdmin(app: FastifyInstance, config: Config): void {
  app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      const token = config.admin?.token;
      if (!token) return sendEnvelope(reply, 403, 'The admin API is off: set ADMIN_TOKEN');
      if (!operatorTokenMatches(request.headers.authorization, token))
        return sendEnvelope(reply, 403, 'Send Authorization: Bearer <ADMIN_TOKEN>');
    });
    scope.post('/admin/v1/accounts', (request, reply) =>
      answer(reply, () => {
        const body = objectBody(request.body);
        return createAccount(
          { email: text(body, 'email')!, password: text(body, 'password')!, plan: text(body, 'plan', false) },
          config.defaultPlan,
        );
      }),
    );
    scope.put('/admin/v1/accounts/plan', (request, reply) =>
      answer(reply, () => {
        const body = objectBody(request.body);
        return setPlan({ email: text(body, 'email')!, plan: text(body, 'plan')! });
      }),
    );
    scope.post('/admin/v1/tokens', (request, reply) =>
      answer(reply, () => {
        const body = objectBody(request.body);
        return createToken({ email: text(body, 'email')!, name: text(body, 'name', false) });
      }),
    );
    scope.get('/admin/v1/plans', (_request, reply) => answer(reply, () => listPlans()));
    scope.put<{ Params: { id: string } }>('/admin/v1/plans/:id', (request, reply) =>
      answer(reply, () => {
        const body = objectBody(request.body);
        if (typeof body.allowsPublishing !== 'boolean') throw badRequest('allowsPublishing must be true or false');
        return savePlan({
          id: request.params.id,
          name: text(body, 'name')!,
          allowsPublishing: body.allowsPublishing,
          maxCustomers: limit(body, 'maxCustomers'),
          maxProjects: limit(body, 'maxProjects'),
        });
      }),
    );
  });
}

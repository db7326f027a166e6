// The response envelope of the contract, {msg, status, data?}: every answer of
// the service that is not GraphQL or a file has this shape, Fastify's own
// errors and unknown paths included (errors.ts), and the REST routes
// (rest-compat/) answer with it.
import type { FastifyReply } from 'fastify';

export function sendEnvelope(
  reply: FastifyReply,
  status: number,
  msg: string,
  data?: unknown,
  headers: Record<string, string> = {},
): FastifyReply {
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send(data === undefined ? { msg, status } : { msg, status, data });
}

/** A 200 whose fields sit at the root of the body beside msg and status (RestResult.root). */
export function sendRoot(
  reply: FastifyReply,
  fields: Record<string, unknown>,
  headers: Record<string, string> = {},
): FastifyReply {
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply
    .status(200)
    .type('application/json; charset=utf-8')
    .send({ msg: 'OK', status: 200, ...fields });
}

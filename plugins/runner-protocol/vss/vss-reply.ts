import type { FastifyReply } from 'fastify';
import { vssErrorBody, type VssExceptionKey } from './vss-error.js';

/** The list shape every VSS endpoint returns (the runner unwraps `value`). */
export interface WrappedList<T> {
  readonly count: number;
  readonly value: readonly T[];
}

export function wrappedList<T>(values: readonly T[]): WrappedList<T> {
  return { count: values.length, value: values };
}

/**
 * A 401 the runner's VSS client answers by (re)fetching its OAuth token: the `WWW-Authenticate:
 * Bearer` challenge is what makes it do so (a 401 without it, or a 403, is a plain failure).
 */
export function sendBearerChallenge(reply: FastifyReply, message: string): FastifyReply {
  return sendVssError(reply.header('www-authenticate', 'Bearer'), 401, 'VssUnauthorizedException', message);
}

export function sendVssError(reply: FastifyReply, status: number, typeKey: VssExceptionKey, message: string, errorCode = 0): FastifyReply {
  return reply.status(status).type('application/json').send(vssErrorBody(typeKey, message, errorCode));
}

/** .NET round-trip date text (`0001-01-01T00:00:00` is "unset"). */
export function vssDate(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

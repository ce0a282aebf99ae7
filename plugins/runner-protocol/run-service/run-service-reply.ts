import type { FastifyReply } from 'fastify';
import { runServiceError } from '../../../core/protocol/index.js';

/**
 * Sends the run service's error body (§0.4); the runner acts on the body's `statusCode` (acquire:
 * 404/409/422 skip the message; renew/complete: 404 stops), sent as the HTTP status too.
 */
export function sendRunServiceError(reply: FastifyReply, statusCode: number, message: string): FastifyReply {
  return reply.status(statusCode).type('application/json').send(runServiceError(statusCode, message));
}

import type { FastifyReply } from 'fastify';
import { brokerError, type BrokerErrorKind } from '../../../core/protocol/index.js';

/** Sends the broker's error body (§0.4): the runner acts on `source` and `errorKind` only. */
export function sendBrokerError(reply: FastifyReply, kind: BrokerErrorKind, message: string): FastifyReply {
  const body = brokerError(kind, message);
  return reply.status(body.statusCode).type('application/json').send(body);
}

import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { SystemAuth } from '../core-services.js';
import { AuthError } from '../errors.js';

const SCHEME = /^(bearer|token)\s+(\S+)\s*$/i;

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Extracts the credential from `Bearer x` / `token x` (scheme names case-insensitive). */
export function credentialFromHeader(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  return SCHEME.exec(authorization)?.[2];
}

/** Compares digests so neither the content nor the length of the token leaks through timing. */
export function createSystemAuth(systemToken: string): SystemAuth {
  const expected = digest(systemToken);
  return {
    verifyHeader(authorization) {
      const presented = credentialFromHeader(authorization);
      if (presented === undefined) return false;
      return timingSafeEqual(digest(presented), expected);
    },
  };
}

/** onRequest hook for route groups with `auth: 'system'`. */
export function installSystemAuth(app: FastifyInstance, auth: SystemAuth): void {
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (header === undefined) throw new AuthError('missing Authorization header; send "Authorization: Bearer <system token>"', { code: 'missing_credential' });
    if (!auth.verifyHeader(header)) throw new AuthError('invalid credential for this route', { code: 'invalid_credential' });
  });
}

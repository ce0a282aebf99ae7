import type { FastifyRequest } from 'fastify';
import { arrivedOnRunnerSocket, AuthError, type EnvConfig, type SystemAuth } from '../../../core/kernel/index.js';

export type RegistrationPolicy = EnvConfig['registrationPolicy'];

const REMOTE_AUTH = /^remoteauth\s+(\S+)\s*$/i;

/**
 * The policy a registration request is held to. Spec, Authentication rule 6: `permissive` is for
 * conformance replay on a loopback TCP listener only; the runner socket is always `strict`.
 */
export function registrationPolicyFor(request: FastifyRequest, configured: RegistrationPolicy): RegistrationPolicy {
  return arrivedOnRunnerSocket(request) ? 'strict' : configured;
}

/**
 * Checks the registration credential (`Authorization: RemoteAuth <token>`, the runner's `--token`)
 * of `POST /api/v3/actions/runner-registration` and of the runner-admin routes. `strict` wants the
 * engine's system token; `permissive` (only ever started on a loopback listener, which the config
 * loader enforces, and never on the runner socket) takes any non-empty credential. Answers the
 * policy applied.
 */
export function checkRegistrationCredential(request: FastifyRequest, configured: RegistrationPolicy, systemAuth: SystemAuth): RegistrationPolicy {
  const authorization = request.headers.authorization;
  if (authorization === undefined) {
    throw new AuthError('missing Authorization header; configure the runner with --token <system token>', { code: 'missing_credential' });
  }
  const token = REMOTE_AUTH.exec(authorization)?.[1];
  if (token === undefined) throw new AuthError('the registration credential must be sent as "Authorization: RemoteAuth <token>"', { code: 'invalid_credential' });
  const policy = registrationPolicyFor(request, configured);
  if (policy === 'permissive') return policy;
  if (!systemAuth.verifyHeader(`Bearer ${token}`)) {
    throw new AuthError('the registration token is not valid for this server: configure the runner with --token <system token> (SVC_SYSTEM_TOKEN)', {
      code: 'invalid_credential',
    });
  }
  return policy;
}

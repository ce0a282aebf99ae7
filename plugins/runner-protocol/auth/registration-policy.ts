import { AuthError, type EnvConfig, type SystemAuth } from '../../../core/kernel/index.js';

export type RegistrationPolicy = EnvConfig['registrationPolicy'];

const REMOTE_AUTH = /^remoteauth\s+(\S+)\s*$/i;

/**
 * Checks the registration credential of `POST /api/v3/actions/runner-registration`
 * (`Authorization: RemoteAuth <token>`, the runner's `--token`). Spec, Authentication rule 6:
 * `strict` wants the engine's system token; `permissive` (only ever started on a loopback
 * listener, which the config loader enforces) takes any non-empty credential.
 */
export function checkRegistrationCredential(authorization: string | undefined, policy: RegistrationPolicy, systemAuth: SystemAuth): void {
  if (authorization === undefined) {
    throw new AuthError('missing Authorization header; configure the runner with --token <system token>', { code: 'missing_credential' });
  }
  const token = REMOTE_AUTH.exec(authorization)?.[1];
  if (token === undefined) throw new AuthError('the registration credential must be sent as "Authorization: RemoteAuth <token>"', { code: 'invalid_credential' });
  if (policy === 'permissive') return;
  if (!systemAuth.verifyHeader(`Bearer ${token}`)) {
    throw new AuthError('the registration token is not valid for this server: configure the runner with --token <system token> (SVC_SYSTEM_TOKEN)', {
      code: 'invalid_credential',
    });
  }
}

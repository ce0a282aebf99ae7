import { AuthError } from '../../core/kernel/index.js';

/**
 * The job token from an `Authorization` header, in the three ways clients send it:
 * `basic base64(x-access-token:<token>)` (actions/checkout's `http.extraheader`, git's own
 * credential prompt; any user name, the password is the token, or the user name when the
 * password is empty, as in `https://<token>@host/...`), `Bearer <token>` and `token <token>`
 * (octokit). Schemes in any case.
 */
export function tokenFromAuthorization(header: string | undefined): string {
  const match = /^\s*(basic|bearer|token)\s+(\S+)\s*$/i.exec(header ?? '');
  const scheme = match?.[1]?.toLowerCase();
  const value = match?.[2];
  if (scheme === undefined || value === undefined) {
    throw new AuthError('the checkout relay needs the job token (GITHUB_TOKEN) as Basic credentials (password) or a Bearer token', {
      code: 'unauthenticated',
    });
  }
  if (scheme !== 'basic') return value;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const user = colon < 0 ? decoded : decoded.slice(0, colon);
  const password = colon < 0 ? '' : decoded.slice(colon + 1);
  const token = password === '' ? user : password;
  if (token === '') throw new AuthError('the Basic credentials carry no token', { code: 'unauthenticated' });
  return token;
}

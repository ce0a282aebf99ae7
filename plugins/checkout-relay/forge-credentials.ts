import type { ForgeApps } from '../../core/ports/index.js';

/**
 * The credential svc fetches a forge repository with: a user name and a password for HTTP Basic
 * (GitHub takes `x-access-token:<token>` for a PAT and for an App installation token alike).
 * Undefined: fetch anonymously (a public repository). The relay takes this as a dependency, so
 * installation tokens narrowed to the repository can replace the PAT without touching the mirror.
 */
export interface GitCredentials {
  readonly username: string;
  readonly password: string;
}

export type ForgeGitCredentials = (repository: string) => Promise<GitCredentials | undefined>;

/** `SVC_FORGE_TOKEN` (a PAT) for every repository; none when it is unset. */
export function patCredentials(token: string | undefined): ForgeGitCredentials {
  const credentials = token === undefined ? undefined : { username: 'x-access-token', password: token };
  return async () => credentials;
}

/**
 * A GitHub App's installation token for a repository an App covers (narrowed to it and
 * `contents: read`, shared: the mirror's fetches are svc's, never a job's; reused until shortly
 * before it expires), else `fallback` (the PAT, or none).
 */
export function appCredentials(apps: ForgeApps | undefined, fallback: ForgeGitCredentials): ForgeGitCredentials {
  if (apps === undefined || apps.apps.length === 0) return fallback;
  return async (repository) => {
    if ((await apps.installationFor(repository)) === undefined) return fallback(repository);
    const minted = await apps.installationToken(repository, { contents: 'read' });
    return { username: 'x-access-token', password: minted.token };
  };
}

/** The `Authorization` value git sends (through `http.extraHeader` from the environment, never argv). */
export function basicAuthorization(credentials: GitCredentials): string {
  return `Authorization: Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
}

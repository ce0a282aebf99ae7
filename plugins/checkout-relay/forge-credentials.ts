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

/** The `Authorization` value git sends (through `http.extraHeader` from the environment, never argv). */
export function basicAuthorization(credentials: GitCredentials): string {
  return `Authorization: Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
}

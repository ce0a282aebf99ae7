import { splitRepositoryName } from '../../core/ports/index.js';

/**
 * Where the forge serves git over HTTPS, from its REST base (`SVC_FORGE_API_URL`) unless
 * `SVC_FORGE_GIT_URL` names it: `https://api.github.com` → `https://github.com`; a GitHub
 * Enterprise Server base `https://host[/prefix]/api/v3` → `https://host[/prefix]`; any other base
 * is taken as the git host itself. Answers the base without a trailing slash.
 */
export function forgeGitBase(apiUrl: string, override?: string): string {
  if (override !== undefined) return override.replace(/\/+$/, '');
  const url = new URL(apiUrl);
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith('/api/v3')) return `${url.origin}${path.slice(0, -'/api/v3'.length)}`;
  if (url.hostname.startsWith('api.') && (path === '' || path === '/')) {
    return `${url.protocol}//${url.hostname.slice('api.'.length)}${url.port === '' ? '' : `:${url.port}`}`;
  }
  return `${url.origin}${path}`;
}

/** `<base>/<owner>/<repo>.git`, or undefined for a name that is not `owner/repo`. */
export function repositoryGitUrl(base: string, repository: string): string | undefined {
  const name = splitRepositoryName(repository);
  return name === undefined ? undefined : `${base}/${encodeURIComponent(name.owner)}/${encodeURIComponent(name.repo)}.git`;
}

/**
 * Requests under `/api/v3` (where `github.api_url` of a job points, and where `config.sh`
 * registers) come from GitHub's clients: the runner, octokit in actions. One that matches no
 * route gets GitHub's error body, `{message, documentation_url, status}`, as GitHub answers an
 * unknown endpoint, and a message naming what this server does serve there, so a job log shows
 * "svc does not serve GET /api/v3/repos/acme/other; under /api/v3 it serves only ..." rather
 * than something that reads like a server bug.
 *
 * What is served is collected as route groups register: a group with routes under the prefix
 * is named by its `serves` phrase, or by its routes when it has none.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';

export const GITHUB_API_PREFIX = '/api/v3';

/** GitHub's documentation link in its generic 404 body. */
export const GITHUB_API_DOCUMENTATION_URL = 'https://docs.github.com/rest';

/** GitHub's REST error body (`basic-error` in its OpenAPI description). */
export interface GithubErrorBody {
  readonly message: string;
  readonly documentation_url: string;
  readonly status: string;
}

/** What each server (TCP, the runner socket) serves under the prefix, in registration order. */
const served = new WeakMap<FastifyInstance, string[]>();

export function isGithubApiPath(path: string): boolean {
  return path === GITHUB_API_PREFIX || path.startsWith(`${GITHUB_API_PREFIX}/`);
}

/**
 * Watches one route group's registration on `server` (call inside its encapsulated context,
 * before its routes are added); `done` records what it serves under the prefix, if anything.
 */
export function watchGithubApiRoutes(server: FastifyInstance, context: FastifyInstance, serves: string | undefined): { done(): void } {
  const routes: string[] = [];
  context.addHook('onRoute', (route: RouteOptions) => {
    if (!isGithubApiPath(route.url)) return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((method) => method !== 'HEAD');
    for (const method of methods) routes.push(`${method} ${templatePath(route.url)}`);
  });
  return {
    done() {
      if (routes.length === 0) return;
      const list = served.get(server) ?? [];
      list.push(serves ?? [...new Set(routes)].join(', '));
      served.set(server, list);
    },
  };
}

/** The 404 for a request under the prefix that matched no route. */
export function githubApiNotFound(server: FastifyInstance, method: string, path: string): GithubErrorBody {
  const services = served.get(server) ?? [];
  const offer =
    services.length === 0
      ? `it serves nothing under ${GITHUB_API_PREFIX}`
      : `under ${GITHUB_API_PREFIX} it serves only ${services.join('; ')}`;
  return {
    message: `Not Found: svc does not serve ${method} ${path}; ${offer}`,
    documentation_url: GITHUB_API_DOCUMENTATION_URL,
    status: '404',
  };
}

/** `/repos/:owner/:repo/tarball/*` → `/repos/{owner}/{repo}/tarball/{path}`, as GitHub's docs write them. */
function templatePath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\/\*$/, '/{path}');
}

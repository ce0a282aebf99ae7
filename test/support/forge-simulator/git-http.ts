/**
 * The simulated forge's git over smart HTTP, on its web host (as github.com serves git while
 * api.github.com serves REST): `GET /{owner}/{repo}[.git]/info/refs?service=git-upload-pack` and
 * `POST .../git-upload-pack`, protocol v0 and v2, gzip request bodies, by `git upload-pack
 * --stateless-rpc` on the repository. Auth as GitHub's: HTTP Basic with any user name and the
 * token as password (`x-access-token:<token>`: the simulator's PAT, or a live installation token
 * minted for the repository); a private repository without it, or a wrong one, is `401` with a
 * Basic challenge. Wants by id of reachable commits are allowed (GitHub allows them).
 * Push is `403`.
 */
import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { GitRepositories } from './git-repositories.js';

const PATH = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/(info\/refs|git-upload-pack|git-receive-pack)$/;

export interface GitHttpRecord {
  readonly repository: string;
  /** `advertise` for `GET info/refs`, `upload-pack` for a `POST`. */
  readonly kind: 'advertise' | 'upload-pack';
  readonly status: number;
}

/** Whether the path is one of git's (the web host answers it here, not as codeload). */
export function isGitPath(pathname: string): boolean {
  return PATH.test(pathname);
}

function basicPassword(authorization: string | undefined): string | undefined {
  const encoded = /^basic\s+(.+)$/i.exec(authorization ?? '')?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

export async function serveGit(
  repositories: GitRepositories,
  /** Whether `password` may read `repository` (`owner/repo`). */
  authorised: (password: string, repository: string) => boolean,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  record: (entry: GitHttpRecord) => void,
): Promise<void> {
  const match = PATH.exec(url.pathname);
  const repository = match === null ? undefined : repositories.get(`${decodeURIComponent(match[1] ?? '')}/${decodeURIComponent(match[2] ?? '')}`);
  const advertise = match?.[3] === 'info/refs';
  const kind = advertise ? 'advertise' : 'upload-pack';
  const answer = (status: number, text: string, headers: Record<string, string> = {}) => {
    record({ repository: repository?.fullName ?? url.pathname, kind, status });
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(text);
  };
  if (match === null) return answer(404, 'Not Found\n');
  const password = basicPassword(request.headers.authorization);
  const named = `${decodeURIComponent(match[1] ?? '')}/${decodeURIComponent(match[2] ?? '')}`;
  if (request.headers.authorization !== undefined && (password === undefined || !authorised(password, named))) {
    return answer(401, 'Invalid username or token.\n', { 'www-authenticate': 'Basic realm="GitHub"' });
  }
  if (repository === undefined || (repository.private && password === undefined)) {
    // GitHub challenges an anonymous request for a repository it will not name.
    if (password === undefined) return answer(401, 'Authentication required\n', { 'www-authenticate': 'Basic realm="GitHub"' });
    return answer(404, 'Repository not found.\n');
  }
  const service = url.searchParams.get('service');
  if (match[3] === 'git-receive-pack' || service === 'git-receive-pack') return answer(403, 'Write access to repository not granted.\n');
  if (advertise && service !== 'git-upload-pack') return answer(403, 'smart HTTP only\n');
  if (!advertise && request.method !== 'POST') return answer(405, 'POST only\n');

  const protocol = request.headers['git-protocol'];
  const v2 = typeof protocol === 'string' && protocol.split(':').includes('version=2');
  const child = spawn(
    'git',
    ['-c', 'uploadpack.allowReachableSHA1InWant=true', 'upload-pack', '--stateless-rpc', ...(advertise ? ['--advertise-refs'] : []), repository.dir],
    {
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: '/nonexistent',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        ...(typeof protocol === 'string' ? { GIT_PROTOCOL: protocol } : {}),
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
  child.stdin.on('error', () => undefined);
  record({ repository: repository.fullName, kind, status: 200 });
  response.writeHead(200, {
    'content-type': advertise ? 'application/x-git-upload-pack-advertisement' : 'application/x-git-upload-pack-result',
    'cache-control': 'no-cache',
  });
  if (advertise) {
    child.stdin.end();
    if (!v2) response.write('001e# service=git-upload-pack\n0000');
  } else {
    const gzip = /gzip/i.test(String(request.headers['content-encoding'] ?? ''));
    if (gzip) pipeline(request, createGunzip(), child.stdin, () => undefined);
    else pipeline(request, child.stdin, () => undefined);
  }
  child.stdout.pipe(response);
  await new Promise<void>((resolve) => child.once('close', () => resolve()));
}

import { execFile } from 'node:child_process';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError, UnavailableError, UpstreamError } from '../../core/kernel/index.js';
import { splitRepositoryName, type Clock, type SnapshotHistory } from '../../core/ports/index.js';
import { basicAuthorization, type ForgeGitCredentials } from './forge-credentials.js';
import { repositoryGitUrl } from './forge-git-url.js';
import { gitEnvironment } from './git-process.js';
import { advertisedRef } from './repository-view.js';

/**
 * A node's bare mirrors of forge repositories, the source the relay serves a forge run's commit
 * from (`<dir>/<owner>/<repo>.git`, names lower-cased as the forge compares them). `ensure` makes
 * sure the run's commit is there: a commit the mirror already has costs nothing (remembered in
 * memory, then `git cat-file`), a missing one one incremental `git fetch` of the forge's branches,
 * tags and the run's ref (`refs/pull/7/merge`), then, if the commit is still missing (a branch
 * moved on, a ref that is gone), a fetch of the commit by id. One fetch is in flight per
 * repository: requests for the same repository wait on it and then find their commit, so a
 * hundred jobs of one push cost the forge one fetch.
 *
 * git runs with the relay's clean environment (no user, system or XDG configuration, no prompts),
 * `http` and `https` only, redirects refused (a forge that sends git elsewhere does not get the
 * credential), and the credential as an `http.extraHeader` passed through the environment
 * (`GIT_CONFIG_COUNT`), never on a command line or in a log. The mirror never repacks or prunes
 * (`gc.auto=0`): objects only accumulate; a commit fetched once stays servable.
 *
 * A forge that cannot be reached (or answers 5xx) makes `ensure` a 503 `forge_unavailable`, and
 * for `retryAfterMs` after that, every repository's fetch answers the same 503 at once without
 * asking the forge (commits already mirrored are still served), like the forge client's breaker.
 */
export interface ForgeMirrorOptions {
  /** Where the mirrors live (the node's data dir, `forge-mirrors/`). */
  readonly dir: string;
  /** The forge's git base (`https://github.com`), forge-git-url.ts. */
  readonly gitBase: string;
  readonly credentials: ForgeGitCredentials;
  readonly clock: Clock;
  /** How long a forge failure answers 503 without asking again (default 30 s). */
  readonly retryAfterMs?: number;
  /** The longest one fetch may take (default 10 min). */
  readonly fetchTimeoutMs?: number;
}

export interface ForgeMirror {
  /** Fetches what is missing; answers the mirror's git directory holding `sha`. */
  ensure(repository: string, sha: string, ref: string): Promise<string>;
  /** The tags that point into `sha`'s history, as a local run's snapshot records them; no shallow boundary. */
  history(repository: string, sha: string): Promise<SnapshotHistory>;
  /** Fetches from the forge so far (each `git fetch` run, successful or not). */
  readonly fetches: number;
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const DEFAULT_RETRY_AFTER_MS = 30_000;
const DEFAULT_FETCH_TIMEOUT_MS = 10 * 60_000;
const OUTPUT_LIMIT = 64 * 1024 * 1024;

interface GitResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

function runGit(args: readonly string[], env: Readonly<Record<string, string>>, timeoutMs: number): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile('git', [...args], { env, encoding: 'utf8', maxBuffer: OUTPUT_LIMIT, timeout: timeoutMs, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      if (error !== null && (error as NodeJS.ErrnoException).code === 'ENOENT') {
        return reject(new UnavailableError('git is not installed on the server (looked for "git" on PATH); the checkout relay needs it', { cause: error }));
      }
      const timedOut = error !== null && error.killed === true;
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/** git's last meaningful lines, for a message (the URL holds no credential; the header never reaches stderr). */
function gitSaid(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('hint:'));
  return lines.slice(-2).join(' / ').slice(0, 400);
}

export function createForgeMirror(options: ForgeMirrorOptions): ForgeMirror {
  const retryAfterMs = options.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS;
  const fetchTimeoutMs = options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const forge = `the forge's git at ${options.gitBase}`;
  /** `repo@sha` the mirror is known to hold (commits are never removed from a mirror). */
  const present = new Set<string>();
  /** The tail of each repository's queue of fetches: one in flight per repository. */
  const queues = new Map<string, Promise<unknown>>();
  let down: { readonly until: number; readonly problem: string } | undefined;
  let fetches = 0;

  const located = (repository: string): { readonly key: string; readonly gitDir: string; readonly url: string } => {
    const name = splitRepositoryName(repository);
    const url = repositoryGitUrl(options.gitBase, repository);
    if (name === undefined || url === undefined) throw new NotFoundError(`repository ${repository} is not an owner/name the forge has`, { code: 'repository_not_found' });
    const key = `${name.owner}/${name.repo}`.toLowerCase();
    return { key, gitDir: join(options.dir, name.owner.toLowerCase(), `${name.repo.toLowerCase()}.git`), url };
  };

  const git = (gitDir: string, args: readonly string[], extra: Readonly<Record<string, string>> = {}, timeoutMs = 60_000) =>
    runGit(args, gitEnvironment(gitDir, { GIT_DIR: gitDir, ...extra }), timeoutMs);

  const hasCommit = async (gitDir: string, sha: string): Promise<boolean> => {
    if ((await stat(join(gitDir, 'objects')).catch(() => undefined)) === undefined) return false;
    return (await git(gitDir, ['cat-file', '-e', `${sha}^{commit}`])).code === 0;
  };

  const initialise = async (gitDir: string): Promise<void> => {
    if ((await stat(join(gitDir, 'HEAD')).catch(() => undefined)) !== undefined) return;
    await mkdir(gitDir, { recursive: true });
    const made = await runGit(['init', '--bare', '--quiet', gitDir], gitEnvironment(gitDir), 60_000);
    if (made.code !== 0) throw new Error(`git init of the forge mirror ${gitDir} failed: ${gitSaid(made.stderr)}`);
  };

  /** One `git fetch` from the forge; answers git's exit code and stderr, or throws for what is the forge's fault. */
  const fetch = async (repository: string, gitDir: string, url: string, refspecs: readonly string[]): Promise<GitResult> => {
    const credentials = await options.credentials(repository);
    const auth: Record<string, string> =
      credentials === undefined ? {} : { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader', GIT_CONFIG_VALUE_0: basicAuthorization(credentials) };
    fetches += 1;
    const result = await git(
      gitDir,
      [
        '-c', 'gc.auto=0',
        '-c', 'maintenance.auto=false',
        '-c', 'http.followRedirects=false',
        '-c', 'protocol.version=2',
        '-c', 'credential.helper=',
        'fetch', '--quiet', '--no-write-fetch-head', '--no-recurse-submodules', '--', url, ...refspecs,
      ],
      { ...auth, GIT_ALLOW_PROTOCOL: 'http:https', GIT_ASKPASS: '', SSH_ASKPASS: '' },
      fetchTimeoutMs,
    );
    return result;
  };

  const forgeFailure = (repository: string, result: GitResult): Error => {
    const said = result.timedOut ? `no answer within ${Math.round(fetchTimeoutMs / 1000)} s` : gitSaid(result.stderr);
    if (/Authentication failed|could not read Username|returned error: 40[13]/i.test(said)) {
      return new UpstreamError(`${forge} refused svc's credential for ${repository} (git fetch: ${said}); check SVC_FORGE_TOKEN or the App's installation on ${repository}`, {
        code: 'forge_auth_failed',
      });
    }
    if (/repository '.*' not found|returned error: 404/i.test(said)) {
      return new NotFoundError(`${forge} has no repository ${repository} (or svc's credential cannot read it): git fetch said ${said}`, { code: 'repository_not_found' });
    }
    if (/redirect|returned error: 30\d/i.test(said)) {
      return new UpstreamError(`${forge} redirected the fetch of ${repository} (git fetch: ${said}); svc does not follow redirects with the forge's credential: set SVC_FORGE_GIT_URL to where the forge serves git`, {
        code: 'forge_failed',
      });
    }
    const problem = `git fetch of ${repository}: ${said}`;
    down = { until: options.clock.now() + retryAfterMs, problem };
    return unavailable(problem);
  };

  const unavailable = (problem: string): UnavailableError =>
    new UnavailableError(`${forge} is unavailable (${problem}); the relay asks it again after ${Math.round(retryAfterMs / 1000)} s, commits it already mirrored are still served`, {
      code: 'forge_unavailable',
    });

  const missingCommit = (repository: string, sha: string, said: string): NotFoundError =>
    new NotFoundError(`commit ${sha} is not on ${forge} in ${repository}: neither its branches, tags nor the commit id fetched it (${said}); was it force-pushed away?`, {
      code: 'commit_not_found',
      details: { repository, sha },
    });

  /** Inside the repository's queue: the fetches that bring `sha` in, when it is still missing. */
  const bringIn = async (repository: string, sha: string, ref: string, gitDir: string, url: string): Promise<void> => {
    if (await hasCommit(gitDir, sha)) return;
    if (down !== undefined && down.until > options.clock.now()) throw unavailable(down.problem);
    await initialise(gitDir);
    const runRef = advertisedRef(ref);
    const extra = runRef === undefined || runRef.startsWith('refs/heads/') || runRef.startsWith('refs/tags/') ? [] : [`+${runRef}:${runRef}`];
    const refs = await fetch(repository, gitDir, url, ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*', ...extra]);
    // The run's own ref may be gone (a closed pull request); the commit may still be fetched by id.
    if (refs.code !== 0 && !(extra.length > 0 && /couldn't find remote ref/i.test(refs.stderr))) throw forgeFailure(repository, refs);
    down = undefined;
    if (await hasCommit(gitDir, sha)) return;
    const byId = await fetch(repository, gitDir, url, [`+${sha}:refs/svc/commits/${sha}`]);
    if (byId.code === 0 && (await hasCommit(gitDir, sha))) return;
    if (byId.code !== 0 && !/not our ref|couldn't find remote ref|upload-pack: not our|no such remote ref|Server does not allow request for unadvertised object/i.test(byId.stderr)) {
      throw forgeFailure(repository, byId);
    }
    throw missingCommit(repository, sha, gitSaid(byId.stderr) || 'the forge sent no such commit');
  };

  return {
    get fetches() {
      return fetches;
    },

    async ensure(repository, sha, ref) {
      const { key, gitDir, url } = located(repository);
      if (!SHA.test(sha)) throw new NotFoundError(`commit ${sha} is not a full commit id`, { code: 'commit_not_found' });
      if (present.has(`${key}@${sha}`)) return gitDir;
      const previous = queues.get(key) ?? Promise.resolve();
      const mine = previous.catch(() => undefined).then(() => bringIn(repository, sha, ref, gitDir, url));
      queues.set(key, mine);
      try {
        await mine;
      } finally {
        if (queues.get(key) === mine) queues.delete(key);
      }
      present.add(`${key}@${sha}`);
      return gitDir;
    },

    async history(repository, sha) {
      const { gitDir } = located(repository);
      const listed = await git(gitDir, ['for-each-ref', '--merged', sha, '--format=%(objectname) %(refname)', 'refs/tags/']);
      if (listed.code !== 0) throw new Error(`git for-each-ref in the forge mirror of ${repository} failed: ${gitSaid(listed.stderr)}`);
      const tags = listed.stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
          const [object = '', name = ''] = line.split(' ');
          return { object, name: name.slice('refs/tags/'.length) };
        });
      return { tags, shallow: [] };
    },
  };
}

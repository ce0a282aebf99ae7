import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import type { RuntimeState } from '../runtimes/index.js';

/**
 * Makes a guest's runner root: `_work/`, a private `home/` and `tmp/`, and `externals/`, where
 * svc-runner looks for node20 and node24 (runner/handlers/node-runtime.ts): a provisioned
 * runtime is a link to its folder (guests see it read-only at the same path), svc's own node a
 * link to its binary; one that is missing leaves `externals/<name>.missing` saying why, which
 * svc-runner shows when a step needs it.
 */
export async function prepareGuestRoot(root: string, runtimes: readonly RuntimeState[]): Promise<void> {
  await mkdir(join(root, '_work'), { recursive: true, mode: 0o700 });
  await mkdir(join(root, 'home'), { recursive: true });
  await mkdir(join(root, 'tmp'), { recursive: true });
  const externals = join(root, 'externals');
  await mkdir(externals, { recursive: true });
  for (const runtime of runtimes) {
    if (runtime.state === 'ready' && runtime.source === 'provisioned') {
      await symlink(runtime.dir, join(externals, runtime.name));
    } else if (runtime.state === 'ready') {
      await mkdir(join(externals, runtime.name, 'bin'), { recursive: true });
      await symlink(runtime.node, join(externals, runtime.name, 'bin', 'node'));
    } else {
      const why =
        runtime.state === 'missing'
          ? runtime.reason
          : `the built-in pool was still provisioning node ${runtime.version} when this guest started; guests started after it is done have it`;
      await writeFile(join(externals, `${runtime.name}.missing`), `${why}\n`);
    }
  }
}

export async function removeGuestRoot(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true, maxRetries: 3 });
}

/** Variables passed from the server's environment to every guest as they are. */
const PASSED = ['LANG', 'LC_ALL', 'TZ', 'http_proxy', 'https_proxy', 'no_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'];

/**
 * The whole environment of a guest's runner: nothing of the server's own (its tokens, SVC_*)
 * leaks in. PATH is the server's, with the server's Node.js directory at the end so that `node`
 * exists in steps without shadowing another one on PATH. With a shared tool cache, the runner
 * and the setup-* actions find it as on GitHub's hosted images (RUNNER_TOOL_CACHE, AGENT_TOOLSDIRECTORY).
 */
export function guestEnvironment(root: string, toolCache: string | undefined, host: NodeJS.ProcessEnv = process.env, node: string = process.execPath): Record<string, string> {
  const path = (host.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(delimiter).filter((dir) => dir !== '');
  if (!path.includes(dirname(node))) path.push(dirname(node));
  const env: Record<string, string> = {
    PATH: path.join(delimiter),
    HOME: join(root, 'home'),
    TMPDIR: join(root, 'tmp'),
  };
  if (toolCache !== undefined) {
    env['RUNNER_TOOL_CACHE'] = toolCache;
    env['AGENT_TOOLSDIRECTORY'] = toolCache;
  }
  for (const name of PASSED) {
    const value = host[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

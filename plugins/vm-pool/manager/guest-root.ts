import { mkdir, rm, symlink } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';

/** The runtimes `svc-runner` looks for in `externals/` (runner/handlers/node-runtime.ts). */
const RUNTIMES = new Set(['20', '24']);

/**
 * Makes a guest's runner root: `_work/`, a private `home/` and `tmp/`, and `externals/node<N>`
 * pointing at the Node.js that runs the server (for its major version), so JavaScript actions run
 * without a download; a runtime of another major uses the `node` on PATH, as after `--no-externals`.
 */
export async function prepareGuestRoot(root: string, node: string = process.execPath, nodeVersion: string = process.versions.node): Promise<void> {
  await mkdir(join(root, '_work'), { recursive: true, mode: 0o700 });
  await mkdir(join(root, 'home'), { recursive: true });
  await mkdir(join(root, 'tmp'), { recursive: true });
  const major = nodeVersion.split('.')[0] ?? '';
  if (RUNTIMES.has(major)) {
    await mkdir(join(root, 'externals', `node${major}`, 'bin'), { recursive: true });
    await symlink(node, join(root, 'externals', `node${major}`, 'bin', 'node'));
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
 * exists in steps without shadowing another one on PATH.
 */
export function guestEnvironment(root: string, host: NodeJS.ProcessEnv = process.env, node: string = process.execPath): Record<string, string> {
  const path = (host.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(delimiter).filter((dir) => dir !== '');
  if (!path.includes(dirname(node))) path.push(dirname(node));
  const env: Record<string, string> = {
    PATH: path.join(delimiter),
    HOME: join(root, 'home'),
    TMPDIR: join(root, 'tmp'),
  };
  for (const name of PASSED) {
    const value = host[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

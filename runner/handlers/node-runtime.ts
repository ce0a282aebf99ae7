/**
 * Which node runs a JavaScript action. The runtime follows the action's `runs.using` as the
 * runner maps it today (node12 and node16 run on node20; node20 on node24 when
 * `FORCE_JAVASCRIPT_ACTIONS_TO_NODE24` is true in the step's or the worker's environment). The
 * program is the runner root's `externals/<runtime>/bin/node` (`svc-runner configure` downloads
 * it); a runner configured with `--no-externals` has none, and then the `node` on the runner's
 * own `PATH` (as the runner was started, never a step's: a step that puts another node on
 * `$GITHUB_PATH`, as setup-node does, must not change what runs later actions) is used when its
 * major version is the runtime's. Otherwise the step fails with "bundled node20 is missing"
 * (SPEC) saying what was looked at, or, when whoever made the runner root left
 * `externals/<runtime>.missing`, that file's explanation (the built-in pool says why its guests
 * lack a runtime: they were not configured by the user, so `--no-externals` advice means nothing).
 */
import { execFile } from 'node:child_process';
import { access, constants, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { which } from './process-environment.js';

export type NodeRuntimeName = 'node20' | 'node24';

/** SPEC's message (prefix) when neither `externals/` nor `PATH` has the runtime: `bundled node20 is missing`. */
export const BUNDLED_NODE_MISSING = (runtime: NodeRuntimeName): string => `bundled ${runtime} is missing`;

export const FORCE_NODE24_VARIABLE = 'FORCE_JAVASCRIPT_ACTIONS_TO_NODE24';

function isTrue(value: string | undefined): boolean {
  return ['true', '1', 'yes', 'on'].includes((value ?? '').trim().toLowerCase());
}

/** The runtime of an action's `runs.using`, given the step's environment and the worker's. */
export function nodeRuntimeFor(using: string, env: Readonly<Record<string, string>>, base: NodeJS.ProcessEnv = process.env): NodeRuntimeName {
  const declared = using.toLowerCase();
  if (declared === 'node24') return 'node24';
  const force = env[FORCE_NODE24_VARIABLE] ?? base[FORCE_NODE24_VARIABLE];
  return isTrue(force) ? 'node24' : 'node20';
}

export type NodeProgram = { readonly path: string; readonly source: 'externals' | 'path' } | { readonly error: string };

const versions = new Map<string, Promise<string | undefined>>();

/** `node --version` of a program (cached per path), or undefined when it does not answer one. */
export function nodeVersion(path: string): Promise<string | undefined> {
  let version = versions.get(path);
  if (version === undefined) {
    version = new Promise((resolve) => {
      execFile(path, ['--version'], { timeout: 10_000, env: { PATH: process.env['PATH'] ?? '' } }, (error, stdout) => {
        const text = String(stdout).trim();
        resolve(error === null && /^v\d+\./.test(text) ? text : undefined);
      });
    });
    versions.set(path, version);
  }
  return version;
}

export interface LocateNodeOptions {
  /** `<runner root>/externals`. */
  readonly externalsDir: string;
  /** The runner's own `PATH` (the worker's, as started); never a step's. */
  readonly path: string;
  readonly platform: NodeJS.Platform;
}

/** `externals/<runtime>.missing`: why this runner root has no such runtime, in the words of whoever made it. */
function missingRuntimeFile(externalsDir: string, runtime: NodeRuntimeName): string {
  return join(externalsDir, `${runtime}.missing`);
}

async function missingExplanation(externalsDir: string, runtime: NodeRuntimeName): Promise<string | undefined> {
  try {
    const text = (await readFile(missingRuntimeFile(externalsDir, runtime), 'utf8')).trim();
    return text === '' ? undefined : text;
  } catch {
    // No explanation left (or unreadable): the runner's own message.
    return undefined;
  }
}

export async function locateNode(runtime: NodeRuntimeName, options: LocateNodeOptions): Promise<NodeProgram> {
  const bundled = join(options.externalsDir, runtime, 'bin', options.platform === 'win32' ? 'node.exe' : 'node');
  try {
    await access(bundled, constants.X_OK);
    return { path: bundled, source: 'externals' };
  } catch {
    // Configured with --no-externals (or the folder was removed): the node on PATH may do.
  }
  const major = runtime.slice('node'.length);
  const onPath = which('node', options.path, options.platform);
  const version = onPath === undefined ? undefined : await nodeVersion(onPath);
  if (onPath !== undefined && version !== undefined && version.slice(1).split('.')[0] === major) return { path: onPath, source: 'path' };
  const explanation = await missingExplanation(options.externalsDir, runtime);
  if (explanation !== undefined) return { error: `${BUNDLED_NODE_MISSING(runtime)}: ${explanation}` };
  const found =
    onPath === undefined
      ? "there is no node on the runner's PATH"
      : version === undefined
        ? `${onPath} does not answer --version`
        : `the node on the runner's PATH (${onPath}) is ${version}, not ${major}`;
  return {
    error: `${BUNDLED_NODE_MISSING(runtime)}: ${bundled} does not exist (the runner was configured with --no-externals?) and ${found}. Install node ${major} on the runner's PATH, or configure the runner again without --no-externals.`,
  };
}

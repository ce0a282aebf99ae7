import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { arch as osArch, platform as osPlatform } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { RunnerConfigError, type RunnerRoot } from './runner-root.js';
import { unpackTarGz } from './tar-unpack.js';

/** A JavaScript runtime of `externals/` (node20, node24 actions). */
export interface NodeRuntime {
  /** Folder under `externals/`, e.g. `node20`. */
  readonly name: string;
  /** Exact release, from versions.toml. */
  readonly version: string;
}

export const DEFAULT_NODE_DIST = 'https://nodejs.org/dist';
/** The environment variable naming another download source (a mirror of nodejs.org/dist). */
export const NODE_DIST_VARIABLE = 'SVC_RUNNER_NODE_DIST';
/** Written inside each runtime folder once it is complete; a folder without it is re-downloaded. */
const MARKER = '.svc-runner-node-version';
const DOWNLOAD_TIMEOUT_MS = 15 * 60_000;

export interface ExternalsOptions {
  /** Base URL holding `v<version>/node-v<version>-<platform>-<arch>.tar.gz` and `SHASUMS256.txt`. */
  readonly dist: string;
  readonly platform?: string;
  readonly arch?: string;
  /** Progress lines for the terminal. */
  readonly report?: (line: string) => void;
}

const ARCHES: Readonly<Record<string, string>> = { x64: 'x64', arm64: 'arm64', arm: 'armv7l', ppc64: 'ppc64le', s390x: 's390x' };

/** `node-v20.20.2-linux-x64.tar.gz` for this machine. */
export function nodeArchiveName(version: string, platform: string = osPlatform(), arch: string = osArch()): string {
  if (platform !== 'linux' && platform !== 'darwin') throw new RunnerConfigError(`svc-runner downloads node for Linux and macOS only, not ${platform}; configure with --no-externals`);
  const nodeArch = ARCHES[arch];
  if (nodeArch === undefined) throw new RunnerConfigError(`there is no node download for the ${arch} architecture; configure with --no-externals`);
  return `node-v${version}-${platform}-${nodeArch}.tar.gz`;
}

/** The folder of a runtime (`externals/node20`), its `bin/node`, and whether it is complete. */
export function nodeRuntimeDir(root: RunnerRoot, runtime: NodeRuntime): string {
  return join(root.externalsDir, runtime.name);
}

export async function installedNodeVersion(root: RunnerRoot, runtime: NodeRuntime): Promise<string | undefined> {
  const dir = nodeRuntimeDir(root, runtime);
  try {
    await stat(join(dir, 'bin', 'node'));
    return (await readFile(join(dir, MARKER), 'utf8')).trim();
  } catch {
    return undefined;
  }
}

/**
 * Puts each runtime into `externals/<name>/` (`bin/node` inside): the release tarball is
 * downloaded, checked against that release's `SHASUMS256.txt`, unpacked beside the folder and
 * moved into place. A runtime already present at the pinned version is kept.
 */
export async function installNodeRuntimes(root: RunnerRoot, runtimes: readonly NodeRuntime[], options: ExternalsOptions): Promise<void> {
  for (const runtime of runtimes) {
    if ((await installedNodeVersion(root, runtime)) === runtime.version) {
      options.report?.(`node ${runtime.version} is already in ${nodeRuntimeDir(root, runtime)}`);
      continue;
    }
    await installNodeRuntime(root, runtime, options);
  }
}

async function installNodeRuntime(root: RunnerRoot, runtime: NodeRuntime, options: ExternalsOptions): Promise<void> {
  const archive = nodeArchiveName(runtime.version, options.platform, options.arch);
  const base = `${options.dist.replace(/\/+$/, '')}/v${runtime.version}/`;
  const expected = await expectedSha256(base, archive, runtime);
  await mkdir(root.externalsDir, { recursive: true });
  const suffix = randomBytes(4).toString('hex');
  const download = join(root.externalsDir, `.${archive}.${suffix}.part`);
  const staging = join(root.externalsDir, `.${runtime.name}.${suffix}.part`);
  try {
    options.report?.(`Downloading node ${runtime.version} from ${base}${archive}`);
    const actual = await downloadTo(`${base}${archive}`, download, runtime);
    if (actual !== expected) {
      throw new RunnerConfigError(
        `the checksum of ${base}${archive} is ${actual}, but ${base}SHASUMS256.txt says ${expected}: the download is corrupt or the source (${NODE_DIST_VARIABLE}) is not a faithful mirror. Nothing was installed; try again, or configure with --no-externals`,
      );
    }
    await unpackTarGz(download, staging);
    try {
      await stat(join(staging, 'bin', 'node'));
    } catch {
      throw new RunnerConfigError(`${base}${archive} has no bin/node; is ${options.dist} a mirror of ${DEFAULT_NODE_DIST}?`);
    }
    await writeFile(join(staging, MARKER), `${runtime.version}\n`);
    const dir = nodeRuntimeDir(root, runtime);
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
    options.report?.(`node ${runtime.version} unpacked into ${dir}`);
  } finally {
    await rm(download, { force: true });
    await rm(staging, { recursive: true, force: true });
  }
}

async function expectedSha256(base: string, archive: string, runtime: NodeRuntime): Promise<string> {
  const url = `${base}SHASUMS256.txt`;
  const response = await get(url, runtime);
  const text = await response.text();
  for (const line of text.split(/\r?\n/)) {
    const match = /^([0-9a-fA-F]{64})\s+\*?(\S+)\s*$/.exec(line);
    if (match?.[2] === archive && match[1] !== undefined) return match[1].toLowerCase();
  }
  throw new RunnerConfigError(`${url} has no checksum for ${archive}; is node ${runtime.version} published for this platform?`);
}

async function downloadTo(url: string, file: string, runtime: NodeRuntime): Promise<string> {
  const response = await get(url, runtime);
  if (response.body === null) throw new RunnerConfigError(`${url} answered without a body`);
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), hashing, createWriteStream(file));
  } catch (error) {
    throw unreachable(url, runtime, error);
  }
  return hash.digest('hex');
}

async function get(url: string, runtime: NodeRuntime): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), headers: { 'user-agent': 'svc-runner' } });
  } catch (error) {
    throw unreachable(url, runtime, error);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new RunnerConfigError(
      `cannot download node ${runtime.version}: ${url} answered ${response.status}. Set ${NODE_DIST_VARIABLE} to a reachable mirror of ${DEFAULT_NODE_DIST}, or configure with --no-externals to use the node on PATH`,
    );
  }
  return response;
}

function unreachable(url: string, runtime: NodeRuntime, error: unknown): RunnerConfigError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const reason = cause?.code ?? cause?.message ?? (error as Error).message;
  return new RunnerConfigError(
    `cannot download node ${runtime.version}: ${url} is unreachable (${reason}). Set ${NODE_DIST_VARIABLE} to a reachable mirror of ${DEFAULT_NODE_DIST}, or configure with --no-externals to skip the download and use the node on PATH`,
    { cause: error },
  );
}

import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { arch as osArch, platform as osPlatform } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';
import { NodeDistError } from './node-dist-error.js';
import { unpackTarGz } from './tar-unpack.js';

export const DEFAULT_NODE_DIST = 'https://nodejs.org/dist';
/** The environment variable naming another source: a mirror of nodejs.org/dist, as a URL or a directory. */
export const NODE_DIST_VARIABLE = 'SVC_RUNNER_NODE_DIST';
/** Written inside a release folder once it is complete; a folder without it is installed again. */
// (The name is svc-runner's from before the pool shared this code: runner roots keep their runtimes.)
const MARKER = '.svc-runner-node-version';
const DOWNLOAD_TIMEOUT_MS = 15 * 60_000;

export interface NodeReleaseOptions {
  /**
   * Where releases come from, laid out as nodejs.org/dist: `v<version>/node-v<version>-<platform>-<arch>.tar.gz`
   * and `v<version>/SHASUMS256.txt`. An http(s) or file URL, or an absolute directory.
   */
  readonly dist: string;
  readonly platform?: string;
  readonly arch?: string;
  /** Progress lines for a terminal or a log. */
  readonly report?: (line: string) => void;
  readonly signal?: AbortSignal;
}

const ARCHES: Readonly<Record<string, string>> = { x64: 'x64', arm64: 'arm64', arm: 'armv7l', ppc64: 'ppc64le', s390x: 's390x' };

/** `node-v20.20.2-linux-x64.tar.gz` for this machine. */
export function nodeArchiveName(version: string, platform: string = osPlatform(), arch: string = osArch()): string {
  if (platform !== 'linux' && platform !== 'darwin') throw new NodeDistError(`Node.js releases are fetched for Linux and macOS only, not ${platform}`);
  const nodeArch = ARCHES[arch];
  if (nodeArch === undefined) throw new NodeDistError(`there is no Node.js release for the ${arch} architecture`);
  return `node-v${version}-${platform}-${nodeArch}.tar.gz`;
}

/** The version of the complete release in `dir` (its `bin/node` and marker), or undefined. */
export async function installedNodeRelease(dir: string): Promise<string | undefined> {
  try {
    await stat(join(dir, 'bin', 'node'));
    return (await readFile(join(dir, MARKER), 'utf8')).trim();
  } catch {
    return undefined;
  }
}

/**
 * Makes `dir` the release `version` (`bin/node` inside): the tarball is fetched, checked against
 * the release's `SHASUMS256.txt`, unpacked beside `dir` and moved into place, so `dir` is never
 * seen half-written. A release already there at that version is kept.
 */
export async function installNodeRelease(dir: string, version: string, options: NodeReleaseOptions): Promise<'present' | 'installed'> {
  if ((await installedNodeRelease(dir)) === version) {
    options.report?.(`node ${version} is already in ${dir}`);
    return 'present';
  }
  const source = distSource(options.dist);
  const archive = nodeArchiveName(version, options.platform, options.arch);
  const base = `${source.base}v${version}/`;
  const expected = await expectedSha256(source, base, archive, version, options.signal);
  const parent = dirname(dir);
  await mkdir(parent, { recursive: true, mode: 0o700 });
  const suffix = randomBytes(4).toString('hex');
  const download = join(parent, `.${archive}.${suffix}.part`);
  const staging = join(parent, `.${basename(dir)}.${suffix}.part`);
  try {
    options.report?.(`Downloading node ${version} from ${base}${archive}`);
    const actual = await fetchTo(source, `${base}${archive}`, download, version, options.signal);
    if (actual !== expected) {
      throw new NodeDistError(
        `the checksum of ${base}${archive} is ${actual}, but ${base}SHASUMS256.txt says ${expected}: the download is corrupt or the source (${NODE_DIST_VARIABLE}) is not a faithful mirror. Nothing was installed; try again`,
      );
    }
    await unpackTarGz(download, staging);
    try {
      await stat(join(staging, 'bin', 'node'));
    } catch {
      throw new NodeDistError(`${base}${archive} has no bin/node, so ${options.dist} is not a mirror of ${DEFAULT_NODE_DIST}`);
    }
    await writeFile(join(staging, MARKER), `${version}\n`);
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
    options.report?.(`node ${version} unpacked into ${dir}`);
    return 'installed';
  } finally {
    await rm(download, { force: true });
    await rm(staging, { recursive: true, force: true });
  }
}

/** A dist source: fetched over HTTP, or read from a directory (`file:` URLs and absolute paths). */
type DistSource = { readonly kind: 'http'; readonly base: string } | { readonly kind: 'dir'; readonly base: string };

function distSource(dist: string): DistSource {
  const trimmed = dist.trim();
  if (/^https?:\/\//i.test(trimmed)) return { kind: 'http', base: `${trimmed.replace(/\/+$/, '')}/` };
  const path = /^file:\/\//i.test(trimmed) ? fileURLToPath(trimmed) : trimmed;
  if (!isAbsolute(path)) {
    throw new NodeDistError(`${NODE_DIST_VARIABLE}='${dist}' is neither an http(s) URL nor an absolute directory; give a mirror of ${DEFAULT_NODE_DIST}`);
  }
  return { kind: 'dir', base: `${path.replace(/\/+$/, '')}/` };
}

async function expectedSha256(source: DistSource, base: string, archive: string, version: string, signal: AbortSignal | undefined): Promise<string> {
  const where = `${base}SHASUMS256.txt`;
  const text = source.kind === 'http' ? await (await get(where, version, signal)).text() : await readLocal(where, version);
  for (const line of text.split(/\r?\n/)) {
    const match = /^([0-9a-fA-F]{64})\s+\*?(\S+)\s*$/.exec(line);
    if (match?.[2] === archive && match[1] !== undefined) return match[1].toLowerCase();
  }
  throw new NodeDistError(`${where} has no checksum for ${archive}; is node ${version} published for this platform?`);
}

async function fetchTo(source: DistSource, where: string, file: string, version: string, signal: AbortSignal | undefined): Promise<string> {
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  let input: Readable;
  if (source.kind === 'http') {
    const response = await get(where, version, signal);
    if (response.body === null) throw new NodeDistError(`${where} answered without a body`);
    input = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  } else {
    await readableFile(where, version);
    input = createReadStream(where);
  }
  try {
    await pipeline(input, hashing, createWriteStream(file, { mode: 0o600 }), ...(signal === undefined ? [] : [{ signal }]));
  } catch (error) {
    throw unreachable(where, version, error);
  }
  return hash.digest('hex');
}

async function get(url: string, version: string, signal: AbortSignal | undefined): Promise<Response> {
  let response: Response;
  try {
    const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
    response = await fetch(url, { signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]), headers: { 'user-agent': 'svc' } });
  } catch (error) {
    throw unreachable(url, version, error);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new NodeDistError(`cannot download node ${version}: ${url} answered ${response.status}. Set ${NODE_DIST_VARIABLE} to a reachable mirror of ${DEFAULT_NODE_DIST}`);
  }
  return response;
}

async function readableFile(path: string, version: string): Promise<void> {
  try {
    if (!(await stat(path)).isFile()) throw new Error('not a file');
  } catch {
    throw new NodeDistError(`cannot download node ${version}: ${path} does not exist. Set ${NODE_DIST_VARIABLE} to a directory laid out as ${DEFAULT_NODE_DIST} (v<version>/SHASUMS256.txt and the tarballs)`);
  }
}

async function readLocal(path: string, version: string): Promise<string> {
  await readableFile(path, version);
  return readFile(path, 'utf8');
}

function unreachable(url: string, version: string, error: unknown): NodeDistError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const reason = cause?.code ?? cause?.message ?? (error as Error).message;
  return new NodeDistError(`cannot download node ${version}: ${url} is unreachable (${reason}). Set ${NODE_DIST_VARIABLE} to a reachable mirror of ${DEFAULT_NODE_DIST}`, { cause: error });
}

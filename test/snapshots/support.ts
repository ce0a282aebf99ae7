/**
 * Helpers for the snapshot tests (backends/git-snapshots, plugins/local-runs/cli/snapshot, test/snapshots): a git
 * that ignores the machine's configuration, archives built in memory (including ones no honest
 * client makes), and a reader of what a commit holds.
 */
import { execFile, spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { extract, pack, type Header } from 'tar-stream';

const execFileAsync = promisify(execFile);

/** The environment the tests' own git commands run with: no user or system config, fixed identity. */
export const TEST_GIT_ENV: Readonly<Record<string, string>> = {
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: '/nonexistent',
  LC_ALL: 'C',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_AUTHOR_DATE: '1700000000 +0000',
  GIT_COMMITTER_DATE: '1700000000 +0000',
};

/**
 * Makes the git that the code under test runs (with this process's environment, as the CLI
 * does) ignore the machine's user and system config too. Each test file runs in its own process.
 */
export function isolateGitConfig(): void {
  process.env['GIT_CONFIG_NOSYSTEM'] = '1';
  process.env['GIT_CONFIG_GLOBAL'] = '/dev/null';
}

/** Runs git in `cwd` (a work tree, or a bare repository) and returns stdout. */
export async function git(cwd: string, args: readonly string[]): Promise<string> {
  const { stdout } = await execFileAsync('git', args, { cwd, env: TEST_GIT_ENV, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

export interface TreeFile {
  readonly mode: string;
  /** The blob's content (a symlink's target). */
  readonly content: string;
}

/** `git ls-tree -r` of a commit with each blob's content, by path. */
export async function readCommitTree(gitDir: string, sha: string): Promise<Record<string, TreeFile>> {
  const listing = await git(gitDir, ['ls-tree', '-r', '-z', '--full-tree', sha]);
  const files: Record<string, TreeFile> = {};
  for (const line of listing.split('\0')) {
    if (line === '') continue;
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(line);
    if (match === null) throw new Error(`unexpected ls-tree line ${JSON.stringify(line)}`);
    const [, mode = '', , object = '', path = ''] = match;
    files[path] = { mode, content: await git(gitDir, ['cat-file', 'blob', object]) };
  }
  return files;
}

export type ArchiveEntry = (Partial<Header> & { readonly name: string }) & { readonly content?: string | Buffer };

/** A tar (gzip-compressed when asked) of these entries, headers as given: ready to be malicious. */
export async function tarOf(entries: readonly ArchiveEntry[], options: { readonly gzip?: boolean } = {}): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const chunk of archive) chunks.push(chunk as Buffer);
  })();
  for (const { content, ...header } of entries) {
    const data = content === undefined ? undefined : Buffer.from(content);
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error | null) => (error ? reject(error) : resolve());
      if (data === undefined) archive.entry({ mode: 0o644, mtime: new Date(0), ...header }, done).end(undefined);
      else archive.entry({ mode: 0o644, mtime: new Date(0), ...header }, data, done);
    });
  }
  archive.finalize();
  await collected;
  const tar = Buffer.concat(chunks);
  return options.gzip === true ? gzipSync(tar) : tar;
}

/** A stream of `data` in small chunks, as a network upload arrives. */
export function streamOf(data: Buffer, chunkSize = 1000): Readable {
  const parts: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += chunkSize) parts.push(data.subarray(offset, offset + chunkSize));
  return Readable.from(parts);
}

export async function collect(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

export interface ListedEntry {
  readonly type: string;
  readonly mode: number;
  readonly content: string;
  readonly linkname?: string;
}

/** The entries of a tar or tar.gz, by name (what the client sent, before any server). */
export async function listTar(archive: Buffer): Promise<Record<string, ListedEntry>> {
  const tar = archive[0] === 0x1f && archive[1] === 0x8b ? gunzipSync(archive) : archive;
  const reader = extract();
  Readable.from([tar]).pipe(reader);
  const entries: Record<string, ListedEntry> = {};
  for await (const entry of reader) {
    const content = (await collect(entry)).toString('utf8');
    const { name, type, mode, linkname } = entry.header;
    entries[name] = { type, mode, content, ...(linkname ? { linkname } : {}) };
  }
  return entries;
}

/** Runs git in `cwd` with `input` on stdin; resolves with stdout, rejects with stderr on a non-zero exit. */
export function gitInput(cwd: string, args: readonly string[], input: string | Buffer, env: Readonly<Record<string, string>> = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: { ...TEST_GIT_ENV, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`git ${args.join(' ')} exited ${String(code)}: ${err}`))));
    child.stdin.end(input);
  });
}

/** `git pack-objects --revs --stdout` of `revs` (`<id>` includes, `^<id>` excludes) in the repository at `cwd`; thin when asked. */
export function packOf(cwd: string, revs: readonly string[], options: { readonly thin?: boolean } = {}): Promise<Buffer> {
  return gitInput(cwd, ['pack-objects', '--revs', '--stdout', '-q', ...(options.thin === true ? ['--thin'] : [])], `${revs.join('\n')}\n`);
}

export interface HistoryShape {
  /** Commits on `main`, each changing one of a handful of files. */
  readonly commits: number;
  /** An annotated tag `v1.<n>` on every this many commits (none when absent). */
  readonly annotatedEvery?: number;
  /** A lightweight tag `light-<n>` on every this many commits (none when absent). */
  readonly lightweightEvery?: number;
}

/**
 * A history on `main` in the repository at `dir` (made with `git init` already), written with
 * `git fast-import` (hundreds of commits in a blink), then checked out: commit n changes
 * `file-<n % 10>.txt`, dates one second apart.
 */
export async function writeHistory(dir: string, shape: HistoryShape): Promise<void> {
  const parts: string[] = [];
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  for (let n = 1; n <= shape.commits; n += 1) {
    const when = `${1_700_000_000 + n} +0000`;
    parts.push(`commit refs/heads/main\nmark :${n}\ncommitter Test <test@example.com> ${when}\n${data(`commit ${n}`)}`);
    if (n > 1) parts.push(`from :${n - 1}\n`);
    parts.push(`M 100644 inline file-${n % 10}.txt\n${data(`line ${n}\n`.repeat(1 + (n % 7)))}\n`);
    if (shape.annotatedEvery !== undefined && n % shape.annotatedEvery === 0) parts.push(`tag v1.${n}\nfrom :${n}\ntagger Test <test@example.com> ${when}\n${data(`release 1.${n}`)}`);
    if (shape.lightweightEvery !== undefined && n % shape.lightweightEvery === 0) parts.push(`reset refs/tags/light-${n}\nfrom :${n}\n\n`);
  }
  await gitInput(dir, ['fast-import', '--quiet'], parts.join(''));
  await git(dir, ['checkout', '-q', '-f', 'main']);
}

/**
 * Shared by the action download tests: a local mirror of bare repositories, a forge simulator
 * holding `acme/tool` (a private composite that nests `acme/nested@v2`) and `acme/nested`, the
 * workflow that declares them, and readers of the archives the runner downloads.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { startForgeSimulator, type ForgeSimulator } from '../support/forge-simulator/index.js';

export const FORGE_TOKEN = 'ghp_forge_token_of_svc_0123456789';
export const HELLO_YML = 'name: hello\ndescription: says hello\nruns:\n  using: composite\n  steps:\n    - run: echo hello\n      shell: bash\n';
export const TOOL_YML = 'name: tool\ndescription: a composite from the forge\nruns:\n  using: composite\n  steps:\n    - uses: acme/nested@v2\n';
export const NESTED_YML = 'name: nested\ndescription: nested in tool\nruns:\n  using: node20\n  main: index.js\n';

/**
 * Job `a` declares the forge's and the mirror's actions, plus refs and repositories nobody has;
 * `b` and `c` declare only `acme/tool@v1` (so what they cost the forge can be counted exactly).
 */
export const FORGE_WORKFLOW = `name: ci
on: push
jobs:
  a:
    runs-on: [self-hosted]
    steps:
      - uses: acme/tool@v1
      - uses: acme/hello@v1
      - uses: acme/hello@v2
      - uses: acme/tool@v9
      - uses: acme/gone@v1
  b:
    runs-on: [self-hosted]
    steps:
      - uses: acme/tool@v1
  c:
    runs-on: [self-hosted]
    steps:
      - uses: acme/tool@v1
`;

const GIT_ENV = {
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: GIT_ENV }).toString('utf8').trim();

/** `<dir>/acme/hello.git`: action.yml at the root and in `sub/`, tag v1, branch main. */
export function buildMirror(t: TestContext): { readonly dir: string; readonly sha: string } {
  const root = mkdtempSync(join(tmpdir(), 'svc-actions-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const work = join(root, 'work');
  mkdirSync(join(work, 'sub'), { recursive: true });
  writeFileSync(join(work, 'action.yml'), HELLO_YML);
  writeFileSync(join(work, 'sub', 'action.yml'), HELLO_YML.replace('hello', 'sub'));
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'add', '.');
  git(work, 'commit', '-q', '-m', 'hello');
  git(work, 'tag', 'v1');
  const dir = join(root, 'mirror');
  mkdirSync(join(dir, 'acme'), { recursive: true });
  git(root, 'clone', '-q', '--bare', work, join(dir, 'acme', 'hello.git'));
  return { dir, sha: git(work, 'rev-parse', 'HEAD') };
}

export interface ForgeActions {
  readonly forge: ForgeSimulator;
  /** `acme/tool@v1` (private: it needs the token). */
  readonly toolSha: string;
  readonly nestedSha: string;
  /** The env that points svc at the simulator. */
  readonly env: Record<string, string>;
}

/** `apiPrefix: '/api/v3'` makes it a GitHub Enterprise Server-style base. */
export async function forgeWithActions(t: TestContext, options: { readonly apiPrefix?: string } = {}): Promise<ForgeActions> {
  const forge = await startForgeSimulator(t, { token: FORGE_TOKEN, ...options });
  const toolSha = await forge.repositories.create('acme/tool', { files: { 'action.yml': TOOL_YML, 'README.md': 'tool\n' }, tags: ['v1'] }, { private: true });
  const nestedSha = await forge.repositories.create('acme/nested', { files: { 'action.yml': NESTED_YML, 'index.js': 'console.log(1)\n' }, tags: ['v2'] });
  return { forge, toolSha, nestedSha, env: { SVC_FORGE_API_URL: forge.apiUrl, SVC_FORGE_TOKEN: FORGE_TOKEN } };
}

/** The entries of a tar.gz, as `tar` lists them. */
export function tarEntries(archive: Buffer): string[] {
  return execFileSync('tar', ['-tzf', '-'], { input: archive })
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');
}

/** Downloads a tarball as the runner does and checks it has exactly one top-level directory; answers it and the archive. */
export async function downloadTarball(url: string, jobToken: string): Promise<{ readonly top: string; readonly archive: Buffer }> {
  const download = await fetch(url, { headers: { authorization: `Basic ${Buffer.from(`x-access-token:${jobToken}`).toString('base64')}` } });
  assert.equal(download.status, 200, `GET ${url}`);
  const archive = Buffer.from(await download.arrayBuffer());
  const entries = tarEntries(archive);
  const tops = [...new Set(entries.map((entry) => entry.split('/')[0]))];
  assert.equal(tops.length, 1, `exactly one top-level directory: ${entries.join(', ')}`);
  return { top: tops[0] ?? '', archive };
}

/** A file of a tar.gz, as text. */
export function tarFile(archive: Buffer, path: string): string {
  return execFileSync('tar', ['-xzOf', '-', path], { input: archive }).toString('utf8');
}

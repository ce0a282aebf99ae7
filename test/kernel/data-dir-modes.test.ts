/**
 * The data dir is other users' business in no part (issue: svc.db, its WAL and SHM, blobs/ and
 * snapshots/ were 0644 in 0755 folders, and svc.db holds runner session keys and job messages):
 * `svc serve` creates everything owner-only, and makes a data dir of an older version so at start.
 */
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createNamespaceBackend } from '../../plugins/vm-pool/backends/namespace/index.js';
import { createHostEnv } from '../support/host-env.js';
import { eventually, runView, serve, submitWorkflow } from '../vm-pool/support.js';

const GUEST_FOLDERS = new Set(['pool', 'runtimes', 'tool-cache', 'microvm-guests']);

/**
 * Every entry under `dir` (guest folders at its top excepted) whose mode lets anyone but the
 * owner in. The pool replaces its guest after the run meanwhile: an entry that is gone by the
 * time it is looked at (a guest's state dir) is skipped.
 */
function openToOthers(dir: string, top = true): string[] {
  const found: string[] = [];
  const info = lstatSync(dir, { throwIfNoEntry: false });
  if (info === undefined) return found;
  if ((info.mode & 0o077) !== 0) found.push(`${dir} ${(info.mode & 0o777).toString(8)}`);
  if (!info.isDirectory()) return found;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return found;
    throw error;
  }
  for (const name of names) {
    if (top && GUEST_FOLDERS.has(name)) continue;
    const path = join(dir, name);
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() !== false) continue;
    found.push(...openToOthers(path, false));
  }
  return found;
}

const WRITES = `name: writes
on: push
jobs:
  write:
    runs-on: self-hosted
    outputs:
      mode: \${{ steps.touch.outputs.mode }}
    steps:
      - id: touch
        run: |
          echo "a log line for the blob store"
          touch made-by-the-job
          echo "mode=$(stat -c %a made-by-the-job)" >> "$GITHUB_OUTPUT"
`;

const silent = { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined };
const namespace = (await createNamespaceBackend({ logger: silent, dataDir: '/tmp' }).probe()).ok;

describe('data dir modes', { skip: process.platform === 'linux' ? false : 'POSIX modes' }, () => {
  it('a fresh data dir after a run holds only 0700 folders and 0600 files; jobs still get umask 022', async (t) => {
    const served = await serve(t, { SVC_POOL_BACKEND: namespace ? 'namespace' : 'process', SVC_POOL_WARM: '1', SVC_POOL_MAX: '1', SVC_CREDENTIAL_STORE: 'file' });
    const dataDir = served.hostEnv.env.SVC_DATA_DIR ?? '';
    const runId = await submitWorkflow(served.base, WRITES);
    const run = await eventually('the run', async () => {
      const view = await runView(served.base, runId);
      return view.conclusion !== null ? view : undefined;
    });
    assert.equal(run.conclusion, 'success');
    for (const expected of ['svc.db', 'svc.db-wal', 'snapshots', 'credentials']) assert.ok(readdirSync(dataDir).includes(expected), `${expected} in ${readdirSync(dataDir).join(', ')}`);
    assert.deepEqual(openToOthers(dataDir), []);
    if (namespace) {
      const detail = (await (await fetch(`${served.base}/api/v1/runs/${runId}`, { headers: { authorization: `Bearer ${served.hostEnv.env.SVC_SYSTEM_TOKEN}` } })).json()) as { jobs: { outputs: Record<string, string> }[] };
      assert.equal(detail.jobs[0]?.outputs['mode'], '644', "a job's files are made with the usual umask");
    }
  });

  it('makes a data dir from an older version owner-only at start, saying so once', async (t) => {
    const hostEnv = createHostEnv({ SVC_LOG_LEVEL: 'info' });
    const dataDir = hostEnv.env.SVC_DATA_DIR ?? '';
    mkdirSync(join(dataDir, 'blobs', 'logs'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dataDir, 'blobs', 'logs', 'old.log'), 'from an older version', { mode: 0o644 });
    chmodSync(dataDir, 0o755);
    const served = await serve(t, {}, hostEnv);
    assert.deepEqual(openToOthers(dataDir), []);
    assert.match(served.cli.output(), /data dir: [3-9]\d* files and folders other users could read are now owner-only/);
    assert.equal(await served.stop(), 0);
    const again = await serve(t, {}, hostEnv);
    assert.doesNotMatch(again.cli.output(), /other users could read/, 'nothing to change the second time');
  });
});

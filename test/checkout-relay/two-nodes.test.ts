/**
 * Two nodes on one PostgreSQL schema (store and blobs): a run uploaded and submitted through
 * node A whose job a runner of node B takes checks out through B's relay, which materialises the
 * snapshot from the shared blob store first (backends/git-snapshots/README.md, "Several nodes").
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { postgresSchemaUrl, requireService, tempDir } from '../support/services.js';
import { actionsCheckout, localRunJob, okGit, relayHost, REPOSITORY, TREE } from './support.js';

const postgres = await requireService('postgres');

describe('checkout relay: two nodes sharing PostgreSQL', { skip: postgres.skip }, () => {
  it("a job taken on node B checks out the snapshot node A received", async (t) => {
    const env = { SVC_DATABASE_URL: postgresSchemaUrl(t, postgres.url ?? '').url, SVC_CLUSTER_KEY_FILE: join(await tempDir(t), 'cluster.key') };
    const a = await relayHost(t, env);
    const b = await relayHost(t, env);
    const job = await localRunJob(t, a, { dispatchOn: b });
    assert.equal(existsSync(b.snapshots.repositoryPath(REPOSITORY)), false, 'B held nothing of the repository before the checkout');
    assert.equal(new URL(job.serverUrl).port, new URL(b.baseUrl).port, "the job fetches from B's relay");
    const { dir, fetch } = await actionsCheckout(t, job);
    assert.equal(fetch.code, 0, fetch.stderr);
    assert.equal((await okGit(dir, ['rev-parse', 'HEAD'])).trim(), job.sha);
    for (const [path, content] of Object.entries(TREE)) assert.equal(await readFile(join(dir, path), 'utf8'), content, path);
  });
});

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { nodeIdTag, poolNodeTag } from './node-tag.js';

describe('the pool tag of a node', () => {
  it('derives from the node id: stable, 6 hex digits, different for different ids', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-tag-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const a = await poolNodeTag(dir, 'node-a');
    assert.match(a, /^[0-9a-f]{6}$/);
    assert.equal(a, nodeIdTag('node-a'));
    assert.equal(await poolNodeTag(dir, 'node-a'), a);
    assert.notEqual(await poolNodeTag(dir, 'node-b'), a);
  });

  it("an upgraded data directory's tag goes to the first node that starts, which keeps it; the next node uses its own", async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-tag-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'node-tag'), 'c0ffee\n');
    assert.equal(await poolNodeTag(dir, 'host-1'), 'c0ffee', 'the guests the install ran before the upgrade stay adoptable');
    assert.equal(await poolNodeTag(dir, 'node-2'), nodeIdTag('node-2'));
    assert.equal(await poolNodeTag(dir, 'host-1'), 'c0ffee', 'after a restart too');
    assert.equal((await readFile(join(dir, 'node-tags', 'host-1'), 'utf8')).trim(), 'c0ffee');
  });
});

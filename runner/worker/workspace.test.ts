import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { runTestJob, testMessage } from './test-support.js';
import { jobDirectories, toolCacheDirectory } from './workspace.js';

describe('the tool cache directory', () => {
  it('is the first of RUNNER_TOOL_CACHE, RUNNER_TOOLSDIRECTORY, AGENT_TOOLSDIRECTORY, agent.ToolsDirectory, else _work/_tool', () => {
    const work = '/r/_work';
    assert.equal(toolCacheDirectory(work, {}), '/r/_work/_tool');
    assert.equal(toolCacheDirectory(work, { 'agent.ToolsDirectory': '/d' }), '/d');
    assert.equal(toolCacheDirectory(work, { AGENT_TOOLSDIRECTORY: '/c', 'agent.ToolsDirectory': '/d' }), '/c');
    assert.equal(toolCacheDirectory(work, { RUNNER_TOOLSDIRECTORY: '/b', AGENT_TOOLSDIRECTORY: '/c' }), '/b');
    assert.equal(toolCacheDirectory(work, { RUNNER_TOOL_CACHE: '/a', RUNNER_TOOLSDIRECTORY: '/b', AGENT_TOOLSDIRECTORY: '/c' }), '/a');
  });

  it('treats a variable set to empty as the runner does: it stops the search and means the default', () => {
    assert.equal(toolCacheDirectory('/r/_work', { RUNNER_TOOL_CACHE: '', AGENT_TOOLSDIRECTORY: '/c' }), '/r/_work/_tool');
  });

  it('takes a relative value from the working directory, so every step sees the same absolute path', () => {
    assert.equal(toolCacheDirectory('/r/_work', { RUNNER_TOOL_CACHE: 'cache' }), resolve('cache'));
    assert.equal(jobDirectories('/r', 'acme/widgets', { AGENT_TOOLSDIRECTORY: '/shared/tools' }).tools, '/shared/tools');
  });

  it('is created when missing, and runner.tool_cache and RUNNER_TOOL_CACHE in steps name it', async (t) => {
    const shared = await mkdtemp(join(tmpdir(), 'svc-tool-cache-'));
    t.after(() => rm(shared, { recursive: true, force: true }));
    const cache = join(shared, 'not', 'yet');
    const message = testMessage({ steps: [{ run: 'echo "context=${{ runner.tool_cache }} env=$RUNNER_TOOL_CACHE"' }] });
    const { result, reporter } = await runTestJob(t, message, { environment: { RUNNER_TOOL_CACHE: cache } });
    assert.equal(result, 'succeeded');
    assert.ok(reporter.linesOf(2).includes(`context=${cache} env=${cache}`), reporter.linesOf(2).join('\n'));
    assert.ok((await stat(cache)).isDirectory());
  });
});

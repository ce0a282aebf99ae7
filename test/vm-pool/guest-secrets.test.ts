/**
 * A guest's JIT config holds its runner's RSA private key: it must not be on any command line
 * (every local user can read /proc/<pid>/cmdline), and the job's steps must not inherit it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { api, eventually, poolView, runView, serve, submitWorkflow } from './support.js';

const PROBE = `name: probe
on: push
jobs:
  probe:
    runs-on: self-hosted
    outputs:
      inputs: \${{ steps.env.outputs.inputs }}
    steps:
      - id: env
        run: echo "inputs=$(env | grep -c '^ACTIONS_RUNNER_INPUT_' || true)" >> "$GITHUB_OUTPUT"
`;

/** Every process's command line this user can read (all of them, on Linux). */
function commandLines(): { pid: string; line: string }[] {
  const lines: { pid: string; line: string }[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      lines.push({ pid, line: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ') });
    } catch {
      // Gone meanwhile.
    }
  }
  return lines;
}

describe('built-in pool: guest secrets', { skip: process.platform === 'linux' ? false : 'reads /proc' }, () => {
  it('no command line holds a JIT config, and job steps do not inherit it', async (t) => {
    const served = await serve(t, { SVC_POOL_BACKEND: 'process', SVC_POOL_WARM: '1', SVC_POOL_MAX: '2' });
    const guest = await eventually('a guest waiting for a job', async () => (await poolView(served.base)).guests?.find((candidate) => candidate.phase === 'idle'));
    assert.ok(guest.pid !== null);
    const leaks = commandLines().filter(({ line }) => /jitconfig/i.test(line) || /\bey[A-Za-z0-9+/=]{200,}/.test(line));
    assert.deepEqual(leaks, [], 'a JIT config (base64 JSON) on a command line');
    const runnerLine = commandLines().find(({ pid }) => pid === String(guest.pid))?.line ?? '';
    assert.match(runnerLine, / run --once --runner-root /, `the guest's runner: ${runnerLine}`);
    const runId = await submitWorkflow(served.base, PROBE);
    const run = await eventually('the probe job', async () => {
      const view = await runView(served.base, runId);
      return view.conclusion !== null ? view : undefined;
    });
    assert.equal(run.conclusion, 'success');
    const detail = await api<{ jobs: { outputs: Record<string, string> }[] }>(served.base, `/api/v1/runs/${runId}`);
    assert.equal(detail.jobs[0]?.outputs['inputs'], '0', 'ACTIONS_RUNNER_INPUT_* is read and removed by the runner');
  });
});

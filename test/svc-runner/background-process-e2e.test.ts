/**
 * A step that leaves a process running in the background (`./server &`), through `svc serve` and
 * the `svc-runner` CLI: the step ends when its shell exits (with the shell's exit code, its output
 * kept), a background process that keeps printing does not block it nor write into the next
 * step's log, and "Complete job" kills what is left, as the official runner does.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { createRun } from '../runner-protocol/worker-job.js';
import { e2eHost, logLines, runOnce, runView, stepsOf } from './fixtures/e2e-harness.js';

const WORKFLOW = `name: background
on: push
jobs:
  build:
    runs-on: [self-hosted, linux]
    steps:
      - name: Start a server
        run: |
          sleep 600 &
          echo "server pid $!"
      - name: Start a chatty one
        run: |
          (while true; do echo "tick from the background"; sleep 0.1; done) &
          echo "chatty started"
      - name: Next step
        run: |
          echo "next step begins"
          sleep 1
          echo "next step ends"
`;

/** Running (a zombie nobody reaped yet is not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

it('a step that starts a background process ends with its shell; the job completes and kills the process', async (t) => {
  const { h, root } = await e2eHost(t, 'e2e-background');
  const run = await createRun(h, WORKFLOW);
  assert.match(await runOnce(t, root), /Job build completed with result: Succeeded/);
  const view = await runView(h, run.id);
  const lines = await logLines(h, run.id, 'build');
  assert.deepEqual(
    stepsOf(view, 'build'),
    [
      ['Set up job', 'success'],
      ['Start a server', 'success'],
      ['Start a chatty one', 'success'],
      ['Next step', 'success'],
      ['Complete job', 'success'],
    ],
    lines.join('\n'),
  );
  const server = lines.find((line) => line.startsWith('server pid '));
  assert.ok(server !== undefined && lines.includes('chatty started'), `the shells' own output is kept:\n${lines.join('\n')}`);

  const next = lines.indexOf('next step begins');
  const end = lines.indexOf('next step ends');
  assert.ok(next > 0 && end > next, lines.join('\n'));
  const header = lines.lastIndexOf('##[group]Run echo "next step begins"', next);
  assert.ok(header > 0, lines.join('\n'));
  // It printed while its step read on (the runner's 5 s after the shell's exit), then never again in the log.
  assert.ok(lines.slice(0, header).includes('tick from the background'), lines.join('\n'));
  assert.deepEqual(
    lines.slice(header).filter((line) => line.includes('tick from the background')),
    [],
    'the background output is not in the next step, nor in "Complete job"',
  );

  assert.ok(lines.includes('Cleaning up orphan processes'), lines.join('\n'));
  assert.ok(lines.filter((line) => line.startsWith('Terminate orphan process: pid (')).length >= 2, lines.join('\n'));
  const pid = Number(server.slice('server pid '.length));
  for (let waited = 0; alive(pid) && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(alive(pid), false, 'the job clean-up killed the background process');
});

/**
 * Job containers and service containers end to end (`svc serve` + `svc-runner run --once`), on a
 * machine where they cannot run: no engine on `PATH` fails "Set up job" naming the missing
 * engines; an engine whose daemon cannot be reached (`DOCKER_HOST` at a socket nobody listens
 * on) fails "Initialize containers" with the engine's own words, skips the steps, fails an
 * `always()` step that would run in the job container, and still runs "Stop containers". The
 * job always ends (failed), never hangs and never says not_implemented.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { createRun } from '../runner-protocol/worker-job.js';
import { e2eHost, jobOf, logLines, runView, stepsOf } from './fixtures/e2e-harness.js';
import { dockerOnPath, pathWithoutEngines } from './fixtures/engine-path.js';
import { runToEnd, tempDir } from './listener-harness.js';

const CONTAINER_JOB = `name: container
on: push
jobs:
  build:
    runs-on: [self-hosted, linux]
    container:
      image: busybox:svc-test
      env:
        IN_CONTAINER: 'yes'
    steps:
      - name: Inside
        run: echo inside-never
      - name: Always
        if: always()
        run: echo always-never
`;

const SERVICES_JOB = `name: services
on: push
jobs:
  build:
    runs-on: [self-hosted, linux]
    services:
      cache:
        image: redis:7
        ports: ['6379/tcp']
    steps:
      - name: Use the service
        run: echo "port \${{ job.services.cache.ports['6379'] }}"
`;

async function runJob(t: TestContext, name: string, workflow: string, env: Record<string, string>) {
  const { h, root } = await e2eHost(t, name);
  const run = await createRun(h, workflow);
  const { code, output } = await runToEnd(t, ['run', '--once', '--runner-root', root], env, 150_000);
  assert.equal(code, 0, output);
  assert.match(output, /Job build completed with result: Failed/);
  const view = await runView(h, run.id);
  return { view, lines: await logLines(h, run.id, 'build') };
}

function hasLine(lines: readonly string[], pattern: RegExp): void {
  assert.ok(lines.some((line) => pattern.test(line)), `the log has a line matching ${pattern}:\n${lines.join('\n')}`);
}

describe('job and service containers through svc serve', () => {
  it('a job container with no engine on PATH fails "Set up job" naming docker and podman', async (t) => {
    const { view, lines } = await runJob(t, 'containers-no-engine', CONTAINER_JOB, { PATH: pathWithoutEngines() });
    assert.equal(jobOf(view, 'build').conclusion, 'failure');
    assert.deepEqual(stepsOf(view, 'build')[0], ['Set up job', 'failure']);
    hasLine(lines, /^##\[error\]This job runs a job container \(jobs\.<job_id>\.container: busybox:svc-test\): it needs a container engine, but neither 'docker' nor 'podman' was found on PATH/);
    assert.ok(!lines.some((line) => line.includes('not_implemented')), lines.join('\n'));
    assert.ok(!lines.includes('inside-never'));
  });

  it('services with no engine on PATH fail "Set up job" naming docker and podman', async (t) => {
    const { view, lines } = await runJob(t, 'services-no-engine', SERVICES_JOB, { PATH: pathWithoutEngines() });
    assert.equal(jobOf(view, 'build').conclusion, 'failure');
    assert.deepEqual(stepsOf(view, 'build')[0], ['Set up job', 'failure']);
    hasLine(lines, /^##\[error\]This job runs service containers \(jobs\.<job_id>\.services: cache\): it needs a container engine, but neither 'docker' nor 'podman' was found on PATH/);
  });

  it('a job container whose engine daemon is unreachable fails "Initialize containers" and stops cleanly', async (t) => {
    if (!dockerOnPath()) {
      t.skip('no docker CLI on PATH: the unreachable-daemon case needs the CLI (the no-engine cases above still ran)');
      return;
    }
    const socket = join(tempDir(t, 'svc-no-daemon-'), 'docker.sock');
    const { view, lines } = await runJob(t, 'containers-no-daemon', CONTAINER_JOB, { DOCKER_HOST: `unix://${socket}` });
    assert.equal(jobOf(view, 'build').conclusion, 'failure');
    assert.deepEqual(stepsOf(view, 'build'), [
      ['Set up job', 'success'],
      ['Initialize containers', 'failure'],
      ['Inside', 'skipped'],
      ['Always', 'failure'],
      ['Stop containers', 'success'],
      ['Complete job', 'success'],
    ]);
    hasLine(lines, new RegExp(`^##\\[error\\]docker is installed \\(.*docker\\) but its daemon is not reachable: .*${socket.replaceAll('/', '\\/')}`));
    hasLine(lines, /^##\[error\]The job container is not running: docker is installed/);
    assert.ok(!lines.includes('inside-never') && !lines.includes('always-never'), lines.join('\n'));
  });

  it('services whose engine daemon is unreachable fail "Initialize containers"', async (t) => {
    if (!dockerOnPath()) {
      t.skip('no docker CLI on PATH: the unreachable-daemon case needs the CLI (the no-engine cases above still ran)');
      return;
    }
    const socket = join(tempDir(t, 'svc-no-daemon-'), 'docker.sock');
    const { view, lines } = await runJob(t, 'services-no-daemon', SERVICES_JOB, { DOCKER_HOST: `unix://${socket}` });
    assert.deepEqual(stepsOf(view, 'build'), [
      ['Set up job', 'success'],
      ['Initialize containers', 'failure'],
      ['Use the service', 'skipped'],
      ['Stop containers', 'success'],
      ['Complete job', 'success'],
    ]);
    hasLine(lines, /^##\[error\]docker is installed \(.*\) but its daemon is not reachable: /);
  });
});

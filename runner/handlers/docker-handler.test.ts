import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fakeJob, type FakeJob } from '../../test/svc-runner/fixtures/actions-fake-context.js';
import { loadLocalAction, resolvedFrom } from '../actions/index.js';
import { createDockerHandler } from './docker-handler.js';
import type { ResolvedAction } from './handler-types.js';

/** A `docker` that records each call (arguments, then selected environment values) and prints a line. */
async function fakeDocker(job: FakeJob): Promise<{ readonly dir: string; calls(): Promise<string[][]> }> {
  const dir = join(job.root, 'fake-bin');
  const log = join(job.root, 'docker-calls.log');
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'docker'),
    `#!/bin/sh\n{ printf '%s\\037' "$@"; printf 'ENV:INPUT_WHO=%s|GITHUB_WORKSPACE=%s|GITHUB_OUTPUT=%s|HOME=%s|GREETING=%s|ACTIONS_RUNTIME_TOKEN=%s' "$INPUT_WHO" "$GITHUB_WORKSPACE" "$GITHUB_OUTPUT" "$HOME" "$GREETING" "$ACTIONS_RUNTIME_TOKEN"; echo; } >> "${log}"\necho "docker says $1"\n[ "$1" = "run" ] && [ -n "$FAIL_RUN" ] && exit 5\nexit 0\n`,
  );
  await chmod(join(dir, 'docker'), 0o755);
  return {
    dir,
    calls: async () =>
      (await readFile(log, 'utf8'))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.split('\x1f')),
  };
}

async function dockerAction(job: FakeJob, runs: string): Promise<ResolvedAction> {
  const dir = join(job.workspace, 'dock');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'action.yml'), `name: dock\ninputs:\n  who:\n    default: world\nruns:\n  using: docker\n${runs}`);
  await writeFile(join(dir, 'Dockerfile'), 'FROM alpine:3\n');
  return resolvedFrom(await loadLocalAction('./dock', job.workspace));
}

function daemonReason(): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 20_000 }, (error, stdout, stderr) => {
      if (error === null && String(stdout).trim() !== '') resolve(undefined);
      else resolve(`no container engine daemon: \`docker info\` says ${String(stderr).trim().split('\n').pop() ?? error?.message ?? 'nothing'}`);
    });
  });
}

describe('the docker action handler', () => {
  it('fails the step naming the missing engine when neither docker nor podman is on PATH', async (t) => {
    const job = await fakeJob(t);
    const action = await dockerAction(job, '  image: Dockerfile\n');
    const result = await createDockerHandler({ baseEnvironment: { PATH: join(job.root, 'empty') } }).run(job.context({ action }));
    assert.deepEqual(result, { outcome: 'failed' });
    assert.deepEqual(job.log.errors, [
      "The docker action './dock' needs a container engine, but neither 'docker' nor 'podman' was found on PATH. Install docker (or podman) on the runner's machine.",
    ]);
  });

  it('builds the Dockerfile once, then runs it with the entrypoint, evaluated args and env, the runner mounts and container paths', async (t) => {
    const job = await fakeJob(t);
    const docker = await fakeDocker(job);
    const action = await dockerAction(job, '  image: Dockerfile\n  entrypoint: /entry.sh\n  args:\n    - hello ${{ inputs.who }}\n    - ""\n  env:\n    GREETING: hi ${{ inputs.who }}\n  post-entrypoint: /cleanup.sh\n');
    const handler = createDockerHandler({ baseEnvironment: { PATH: `${docker.dir}:/usr/bin:/bin` } });
    const context = job.context({ action, inputs: { who: 'mona' } });
    assert.deepEqual(await handler.run(context), { outcome: 'succeeded' }, job.log.errors.join('\n'));
    assert.deepEqual(await handler.run(context), { outcome: 'succeeded' });
    const calls = await docker.calls();
    assert.equal(calls.length, 3, 'one build, two runs');
    const [build, run] = calls;
    assert.ok(build && run);
    const dockerfile = join(job.workspace, 'dock', 'Dockerfile');
    assert.deepEqual(build.slice(0, 2), ['build', '-t']);
    assert.match(build[2] ?? '', /^[0-9a-f]{6}:[0-9a-f]{32}$/);
    assert.deepEqual(build.slice(3, 6), ['-f', dockerfile, join(job.workspace, 'dock')]);
    const image = build[2] ?? '';
    assert.equal(run[0], 'run');
    assert.deepEqual(run.slice(run.indexOf('--workdir'), run.indexOf('--workdir') + 3), ['--workdir', '/github/workspace', '--rm']);
    assert.deepEqual(run.slice(run.indexOf('--entrypoint'), run.indexOf('--entrypoint') + 2), ['--entrypoint', '/entry.sh']);
    const volumes = run.flatMap((arg, i) => (run[i - 1] === '-v' ? [arg] : []));
    assert.deepEqual(volumes, [
      '/var/run/docker.sock:/var/run/docker.sock',
      `${job.temp}:/github/runner_temp`,
      `${join(job.temp, '_github_home')}:/github/home`,
      `${join(job.temp, '_github_workflow')}:/github/workflow`,
      `${join(job.temp, '_runner_file_commands')}:/github/file_commands`,
      `${job.workspace}:/github/workspace`,
    ]);
    const names = run.flatMap((arg, i) => (run[i - 1] === '-e' ? [arg] : []));
    for (const name of ['INPUT_WHO', 'GREETING', 'HOME', 'GITHUB_WORKSPACE', 'ACTIONS_RUNTIME_TOKEN', 'GITHUB_ACTIONS=true', 'CI=true']) assert.ok(names.includes(name), `-e ${name}`);
    assert.ok(!names.some((name) => name.includes('runtime-token')), 'values stay out of the command line');
    const tail = run.slice(run.indexOf(image));
    assert.deepEqual(tail.slice(0, 3), [image, 'hello mona', '']);
    assert.equal(tail[3], `ENV:INPUT_WHO=mona|GITHUB_WORKSPACE=/github/workspace|GITHUB_OUTPUT=/github/file_commands/github_output_outer|HOME=/github/home|GREETING=hi mona|ACTIONS_RUNTIME_TOKEN=runtime-token`);
    assert.ok(job.log.lines.includes('docker says run'));
    assert.deepEqual(job.posts.map((post) => [post.displayName, post.condition]), [['Post Run ./act', 'always()']]);
  });

  it('pulls docker:// images, passes the args input split as a command line, and fails on a non-zero exit', async (t) => {
    const job = await fakeJob(t);
    const docker = await fakeDocker(job);
    const action: ResolvedAction = { using: 'docker', manifest: { kind: 'container', image: { kind: 'registry', image: 'alpine:3' }, origin: { display: 'docker://alpine:3' } } };
    const handler = createDockerHandler({ baseEnvironment: { PATH: `${docker.dir}:/usr/bin:/bin`, FAIL_RUN: '1' } });
    const result = await handler.run(job.context({ action, inputs: { args: 'sh -c "echo a b"', entryPoint: '/bin/env' }, step: { id: 's', contextName: 'x', name: 'x', displayName: 'd', reference: { kind: 'container', image: 'alpine:3' } } }));
    assert.deepEqual(result, { outcome: 'failed' });
    const [pull, run] = await docker.calls();
    assert.deepEqual(pull?.slice(0, 2), ['pull', 'alpine:3']);
    assert.ok(run);
    assert.deepEqual(run.slice(run.indexOf('alpine:3'), run.indexOf('alpine:3') + 4), ['alpine:3', 'sh', '-c', 'echo a b']);
    assert.deepEqual(run.slice(run.indexOf('--entrypoint'), run.indexOf('--entrypoint') + 2), ['--entrypoint', '/bin/env']);
    assert.equal(job.log.lines[0], '##[group]Run docker://alpine:3');
  });

  it('runs a real container when a daemon answers', async (t) => {
    const reason = await daemonReason();
    if (reason !== undefined) {
      console.log(`skipped: ${reason}`);
      t.skip(reason);
      return;
    }
    const job = await fakeJob(t);
    await mkdir(join(job.workspace, 'dock'), { recursive: true });
    await writeFile(join(job.workspace, 'dock', 'Dockerfile'), 'FROM alpine:3\nENTRYPOINT ["sh", "-c", "echo in-container $INPUT_WHO $GITHUB_WORKSPACE; echo done=1 >> $GITHUB_OUTPUT"]\n');
    const action = resolvedFrom(await loadLocalAction('./dock', job.workspace));
    const result = await createDockerHandler().run(job.context({ action, inputs: { who: 'mona' } }));
    assert.deepEqual(result, { outcome: 'succeeded' }, job.log.lines.join('\n'));
    assert.ok(job.log.lines.includes('in-container mona /github/workspace'));
    assert.equal(await job.read('GITHUB_OUTPUT'), 'done=1\n');
  });
});

/**
 * Job and service containers against a real engine daemon (`svc serve` + `svc-runner run
 * --once`). Needs `docker info` to succeed and a static busybox (`/bin/busybox`, Debian's
 * `busybox-static`) to make local images from (no registry is used: the images are imported
 * from a rootfs tar). Without either, the test is skipped saying which is missing.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { createRun } from '../runner-protocol/worker-job.js';
import { e2eHost, jobOf, logLines, runView, stepsOf, workspaceOf } from './fixtures/e2e-harness.js';
import { runToEnd, tempDir } from './listener-harness.js';

const JOB_IMAGE = 'svc-test-busybox:job';
const SERVICE_IMAGE = 'svc-test-busybox:web';

const WORKFLOW = `name: containers
on: push
jobs:
  build:
    runs-on: [self-hosted, linux]
    container:
      image: ${JOB_IMAGE}
      env:
        IN_CONTAINER: 'yes'
    services:
      web:
        image: ${SERVICE_IMAGE}
        ports: ['8080/tcp']
        options: --health-cmd "wget -qO- http://127.0.0.1:8080/hello.txt" --health-interval 1s --health-retries 10
    steps:
      - name: Where
        run: |
          echo "in=$IN_CONTAINER home=$HOME ws=$GITHUB_WORKSPACE pwd=$(pwd)"
          echo written-inside > inside.txt
          echo "FROM_ENV_FILE=carried" >> "$GITHUB_ENV"
      - name: Service by alias
        run: wget -qO- http://web:8080/hello.txt
      - name: Contexts
        run: echo "port=\${{ job.services.web.ports['8080'] }} net=\${{ job.container.network }} env=$FROM_ENV_FILE"
`;

function dockerInfo(): string | undefined {
  const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8' });
  return info.status === 0 ? undefined : `docker info failed: ${(info.stderr || info.error?.message || '').trim()}`;
}

function importImage(t: TestContext, tag: string, cmd: readonly string[]): void {
  const root = tempDir(t, 'svc-busybox-rootfs-');
  for (const dir of ['bin', 'tmp', 'etc', 'www']) mkdirSync(join(root, dir));
  copyFileSync('/bin/busybox', join(root, 'bin', 'busybox'));
  for (const applet of execFileSync('/bin/busybox', ['--list'], { encoding: 'utf8' }).split('\n')) {
    if (applet !== '' && applet !== 'busybox') symlinkSync('busybox', join(root, 'bin', applet));
  }
  writeFileSync(join(root, 'www', 'hello.txt'), 'hello from the web service\n');
  const tar = join(tempDir(t, 'svc-busybox-tar-'), 'rootfs.tar');
  execFileSync('tar', ['-C', root, '-cf', tar, '.']);
  execFileSync('docker', ['import', '-c', 'ENV PATH=/bin', '-c', `CMD ${JSON.stringify(cmd)}`, tar, tag], { stdio: 'ignore' });
}

describe('job and service containers on a real engine', () => {
  it('runs steps in the job container next to a healthy service, then removes both', async (t) => {
    const missing = dockerInfo() ?? (existsSync('/bin/busybox') ? undefined : 'no /bin/busybox (busybox-static) to make a local image from');
    if (missing !== undefined) {
      console.log(`skipped: ${missing}`);
      t.skip(missing);
      return;
    }
    importImage(t, JOB_IMAGE, ['/bin/sh']);
    importImage(t, SERVICE_IMAGE, ['httpd', '-f', '-p', '8080', '-h', '/www']);

    const { h, root } = await e2eHost(t, 'containers-daemon');
    const run = await createRun(h, WORKFLOW);
    const { code, output } = await runToEnd(t, ['run', '--once', '--runner-root', root], {}, 150_000);
    assert.equal(code, 0, output);
    const view = await runView(h, run.id);
    const lines = await logLines(h, run.id, 'build');
    assert.equal(jobOf(view, 'build').conclusion, 'success', lines.join('\n'));
    assert.deepEqual(stepsOf(view, 'build'), [
      ['Set up job', 'success'],
      ['Initialize containers', 'success'],
      ['Where', 'success'],
      ['Service by alias', 'success'],
      ['Contexts', 'success'],
      ['Stop containers', 'success'],
      ['Complete job', 'success'],
    ]);
    assert.ok(lines.includes('in=yes home=/github/home ws=/__w/widgets/widgets pwd=/__w/widgets/widgets'), lines.join('\n'));
    assert.ok(lines.includes('hello from the web service'), lines.join('\n'));
    assert.ok(lines.includes('web service is healthy.'), lines.join('\n'));
    assert.ok(lines.some((line) => /^port=\d+ net=github_network_[0-9a-f]{32} env=carried$/.test(line)), lines.join('\n'));
    assert.equal(readFileSync(join(workspaceOf(root), 'inside.txt'), 'utf8'), 'written-inside\n');

    const network = /net=(github_network_[0-9a-f]{32})/.exec(lines.join('\n'))?.[1] ?? '';
    const networks = execFileSync('docker', ['network', 'ls', '--quiet', '--filter', `name=${network}`], { encoding: 'utf8' });
    assert.equal(networks.trim(), '', 'the job network is removed');
    const left = execFileSync('docker', ['ps', '--all', '--quiet', '--filter', `network=${network}`], { encoding: 'utf8' });
    assert.equal(left.trim(), '', 'the job containers are removed');
  });
});

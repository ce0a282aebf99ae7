import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createHostEnv } from '../support/host-env.js';
import { PROJECT_ROOT } from '../support/spawn-cli.js';

/** `npm start` runs the bundle `npm run build` makes; check that bundle serves. */
describe('production bundle', () => {
  it('builds, prints versions and serves /readyz', async () => {
    const outdir = join(PROJECT_ROOT, `dist-test-${process.pid}`);
    after(() => rmSync(outdir, { recursive: true, force: true }));
    const built = spawnSync(process.execPath, ['scripts/build.mjs', outdir], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    assert.equal(built.status, 0, built.stderr);
    const version = spawnSync(process.execPath, [join(outdir, 'cli/svc.js'), '--version'], { encoding: 'utf8' });
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);

    const hostEnv = createHostEnv({ SVC_LOG_LEVEL: 'info' });
    after(() => hostEnv.cleanup());
    const child = spawn(process.execPath, [join(outdir, 'cli/svc.js'), 'serve'], { env: { PATH: process.env.PATH ?? '', ...hostEnv.env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const listen = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready in 20 s:\n${output}`)), 20_000);
      child.stdout.on('data', () => {
        const match = /"listen":"([^"]+)"/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    const response = await fetch(`http://${listen}/readyz`);
    assert.deepEqual(await response.json(), { ready: true, reason: 'ready' });
    child.kill('SIGTERM');
    const code = await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(code, 0, output);
  });
});

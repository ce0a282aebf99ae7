import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createHostEnv } from '../support/host-env.js';
import { PROJECT_ROOT, spawnCli } from '../support/spawn-cli.js';

function serveEnv(slowStopMs: number) {
  const hostEnv = createHostEnv({ SVC_LOG_LEVEL: 'info', SLOW_STOP_MS: String(slowStopMs) });
  after(() => hostEnv.cleanup());
  hostEnv.writePlugins(`[[plugin]]\nid = "management-api"\n\n[[plugin]]\npath = "${join(PROJECT_ROOT, 'test/fixtures/slow-stop-plugin.mjs')}"\n`);
  return hostEnv;
}

describe('svc serve', () => {
  it('first signal drains and exits 0 once in-flight work finished', async () => {
    const { env } = serveEnv(300);
    const serve = spawnCli('svc', ['serve'], env);
    await serve.waitFor(/svc is ready/);
    serve.child.kill('SIGTERM');
    await serve.waitFor(/draining/);
    const { code } = await serve.exited;
    assert.equal(code, 0, serve.output());
    assert.match(serve.output(), /"msg":"stopped"/);
  });

  it('a second signal while draining exits at once with 128 + signal', async () => {
    const { env } = serveEnv(60_000);
    const serve = spawnCli('svc', ['serve'], env);
    await serve.waitFor(/svc is ready/);
    serve.child.kill('SIGINT');
    await serve.waitFor(/slow worker stopping/);
    assert.equal(serve.child.exitCode, null, 'still draining');
    serve.child.kill('SIGINT');
    const { code } = await serve.exited;
    assert.equal(code, 130, serve.output());
    assert.match(serve.output(), /second signal/);
    assert.doesNotMatch(serve.output(), /"msg":"stopped"/);
  });

  it('refuses a config file that is not 0600, saying which and how to fix it', async () => {
    const hostEnv = createHostEnv();
    after(() => hostEnv.cleanup());
    const config = join(hostEnv.dir, 'config.toml');
    writeFileSync(config, '[fork_policy]\nrequire_approval = true\n');
    chmodSync(config, 0o644);
    const serve = spawnCli('svc', ['serve'], { ...hostEnv.env, SVC_CONFIG: config });
    const { code } = await serve.exited;
    assert.equal(code, 1);
    assert.match(serve.output(), new RegExp(`svc serve: config file ${config} has mode 0644; it must be 0600`));
  });

  it('refuses an invalid listen address with the variable name', async () => {
    const hostEnv = createHostEnv({ SVC_LISTEN: 'everywhere' });
    after(() => hostEnv.cleanup());
    const serve = spawnCli('svc', ['serve'], hostEnv.env);
    assert.equal((await serve.exited).code, 1);
    assert.match(serve.output(), /SVC_LISTEN='everywhere' is not a listen address/);
  });
});

describe('versions', () => {
  it('svc --version and svc-runner --version print versions', async () => {
    const svc = spawnCli('svc', ['--version'], {});
    assert.equal((await svc.exited).code, 0);
    assert.match(svc.output(), /^\d+\.\d+\.\d+\n$/);
    const runner = spawnCli('svc-runner', ['--version'], {});
    assert.equal((await runner.exited).code, 0);
    assert.match(runner.output(), /^\d+\.\d+\.\d+ \(runner protocol 2\.337\.0\)\n$/);
  });
});

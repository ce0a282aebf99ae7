import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEST_SYSTEM_TOKEN = 'test-system-token-0123456789';

export interface HostEnv {
  readonly dir: string;
  readonly env: Record<string, string>;
  /** Writes a plugins.toml in the temp dir and points SVC_PLUGINS at it. */
  writePlugins(toml: string): string;
  cleanup(): void;
}

/**
 * A private data dir, memory credentials, a known system token, an ephemeral port and the built-in
 * pool off, so each test's host is isolated from the others and from the developer's own installation.
 */
export function createHostEnv(extra: Record<string, string> = {}): HostEnv {
  const dir = mkdtempSync(join(tmpdir(), 'svc-host-'));
  const env: Record<string, string> = {
    HOME: dir,
    SVC_DATA_DIR: join(dir, 'data'),
    SVC_CREDENTIAL_STORE: 'memory',
    SVC_SYSTEM_TOKEN: TEST_SYSTEM_TOKEN,
    SVC_LISTEN: '127.0.0.1:0',
    SVC_LOG_LEVEL: 'silent',
    // No built-in pool guests unless a test asks for them (test/vm-pool sets SVC_POOL_BACKEND).
    SVC_POOL_BACKEND: 'off',
    // Nothing is downloaded from nodejs.org: a pool provisions no node runtime (its guests get
    // the one running svc) unless the test points this at test/support/node-dist-mirror.ts.
    SVC_RUNNER_NODE_DIST: join(dir, 'no-node-dist'),
    ...extra,
  };
  return {
    dir,
    env,
    writePlugins(toml) {
      const path = join(dir, 'plugins.toml');
      writeFileSync(path, toml);
      env.SVC_PLUGINS = path;
      return path;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

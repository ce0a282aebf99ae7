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

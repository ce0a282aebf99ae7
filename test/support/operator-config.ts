import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { tempDir } from './services.js';

/**
 * An operator config file (TOML, mode 0600 as the loader demands) in a temp dir of the test's
 * own, removed after it: `{ SVC_CONFIG: path }` to merge into a host's environment.
 */
export async function operatorConfigEnv(t: TestContext, toml: string): Promise<{ readonly SVC_CONFIG: string }> {
  const path = join(await tempDir(t), 'svc.toml');
  await writeFile(path, toml, { mode: 0o600 });
  return { SVC_CONFIG: path };
}

import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const TAG_FILE = 'node-tag';
const TAG = /^[0-9a-f]{6}$/;

/**
 * This data directory's pool tag (6 hex digits, kept in `<pool dir>/node-tag`): it is part of
 * every guest's name (`svc-pool-<tag>-…`), so a server can tell its own guests' registrations
 * from another node's on a shared store, and remove those a killed predecessor left behind.
 */
export async function poolNodeTag(rootDir: string): Promise<string> {
  const file = join(rootDir, TAG_FILE);
  const existing = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (TAG.test(existing)) return existing;
  const tag = randomBytes(3).toString('hex');
  await mkdir(rootDir, { recursive: true, mode: 0o700 });
  await writeFile(file, `${tag}\n`, { mode: 0o600 });
  return tag;
}

import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { CredentialBackend, Logger } from '../../core/kernel/index.js';
import type { CredentialStore } from '../../core/ports/index.js';
import { checkCredentialName } from './names.js';

/**
 * One file per credential in a 0700 directory, each 0600, written atomically (temp + rename) so
 * a crash never leaves half a key.
 */
export async function createFileCredentialStore(dir: string, logger?: Logger): Promise<CredentialStore> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const mode = (await stat(dir)).mode & 0o777;
  if (mode !== 0o700) {
    await chmod(dir, 0o700);
    logger?.warn({ dir, was: mode.toString(8) }, 'credential directory was not 0700; tightened it');
  }
  const pathOf = (name: string) => join(dir, checkCredentialName(name));
  return {
    kind: 'file',
    persistent: true,
    async get(name) {
      try {
        const path = pathOf(name);
        const entryMode = (await stat(path)).mode & 0o777;
        if (entryMode !== 0o600) await chmod(path, 0o600);
        return (await readFile(path, 'utf8')).replace(/\n$/, '');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async set(name, value) {
      const path = pathOf(name);
      const temp = `${path}.tmp-${randomBytes(6).toString('hex')}`;
      await writeFile(temp, value, { mode: 0o600, flag: 'wx' });
      await rename(temp, path);
    },
    async delete(name) {
      try {
        await rm(pathOf(name));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    },
  };
}

export const fileCredentials: CredentialBackend = {
  kind: 'credentials',
  id: 'file',
  create: (context) => createFileCredentialStore(join(context.dataDir, 'credentials'), context.logger),
};

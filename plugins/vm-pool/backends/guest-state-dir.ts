import { mkdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { ConflictError } from '../../../core/kernel/index.js';

/** Makes a guest's host-side state directory (mode 0700, its parent too), fresh: a second guest of one id is a conflict. */
export function createGuestStateDir(stateDir: string, kind: string): void {
  mkdirSync(dirname(stateDir), { recursive: true, mode: 0o700 });
  try {
    mkdirSync(stateDir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ConflictError(`a ${kind} guest ${basename(stateDir)} already exists (${stateDir})`);
    throw error;
  }
}

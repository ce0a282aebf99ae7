import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IsolationKind } from '../backends/index.js';

/** In each guest root: what a restarted server needs to adopt the guest (mode 0600). */
const RECORD_FILE = '.svc-guest.json';

/** A guest as its server recorded it, for the server of the same data directory after it. */
export interface GuestRecord {
  readonly guestId: string;
  readonly root: string;
  readonly backend: IsolationKind;
  readonly runnerId: number;
  /** The backend's handle (`Guest.handle`). */
  readonly handle: unknown;
}

export async function writeGuestRecord(record: GuestRecord): Promise<void> {
  const { root, ...stored } = record;
  await writeFile(join(root, RECORD_FILE), `${JSON.stringify(stored)}\n`, { mode: 0o600 });
}

/**
 * The guest roots a previous server of this node left under `rootDir`: those named after this
 * node (`guestPrefix`) with a record of `backend` come back to be adopted; this node's roots
 * without one are removed (a guest without a record was still starting or cannot outlive its
 * server). Roots of other nodes (`svc-pool-*` with another tag: nodes sharing the data
 * directory) are left alone and only counted: they are their node's to adopt or remove.
 */
export async function recordedGuests(
  rootDir: string,
  guestPrefix: string,
  backend: IsolationKind,
): Promise<{ readonly records: readonly GuestRecord[]; readonly removed: number; readonly othersLeft: number }> {
  let names: string[];
  try {
    names = await readdir(rootDir);
  } catch {
    return { records: [], removed: 0, othersLeft: 0 };
  }
  const records: GuestRecord[] = [];
  let removed = 0;
  let othersLeft = 0;
  for (const name of names.filter((entry) => entry.startsWith('svc-pool-'))) {
    if (!name.startsWith(guestPrefix)) {
      othersLeft += 1;
      continue;
    }
    const root = join(rootDir, name);
    const record = await readRecord(root, name, backend);
    if (record !== undefined) {
      records.push(record);
    } else {
      await rm(root, { recursive: true, force: true, maxRetries: 3 });
      removed += 1;
    }
  }
  return { records, removed, othersLeft };
}

async function readRecord(root: string, guestId: string, backend: IsolationKind): Promise<GuestRecord | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(join(root, RECORD_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const fields = parsed as Record<string, unknown>;
  if (fields['guestId'] !== guestId || fields['backend'] !== backend || typeof fields['runnerId'] !== 'number' || !Number.isInteger(fields['runnerId'])) return undefined;
  return { guestId, root, backend, runnerId: fields['runnerId'], handle: fields['handle'] };
}

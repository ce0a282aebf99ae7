/**
 * Where the Apps' keys and webhook secrets live: the shared keys (`coreServices.sharedKeys`), one
 * entry per App (`forge.app.<id>`, JSON with the PEM and the webhook secret) and an index of App
 * ids (`forge.apps`). On one node the shared keys are the node's credential store (a 0600 file or
 * the OS keychain); on PostgreSQL they are sealed in the database under the cluster key, because
 * any node's worker mints tokens and checks webhook signatures, so every node must hold every
 * App's key alike. Never the config file, never a plain database column.
 */
import { ConfigError, InputError } from '../../core/kernel/index.js';
import type { CredentialStore } from '../../core/ports/index.js';
import type { KeyObject } from 'node:crypto';
import { parseAppKey } from './app-key.js';

export const FORGE_APPS_INDEX = 'forge.apps';
export const appEntryName = (appId: number): string => `forge.app.${appId}`;

export interface StoredApp {
  readonly appId: number;
  /** The PEM GitHub generated (PKCS#1), or PKCS#8. */
  readonly privateKey: string;
  readonly webhookSecret?: string;
}

export interface LoadedApp {
  readonly appId: number;
  readonly key: KeyObject;
  readonly webhookSecret: string | undefined;
}

const fix = (appId: number) => `store the App's .pem file again: svc setup forge --via app --app-id ${appId} --pem-file <path> --webhook-secret <secret>`;

async function readIndex(keys: CredentialStore): Promise<number[]> {
  const text = await keys.get(FORGE_APPS_INDEX);
  if (text === undefined) return [];
  const ids = JSON.parse(text) as unknown;
  if (!Array.isArray(ids) || !ids.every((id) => Number.isSafeInteger(id) && (id as number) > 0)) {
    throw new ConfigError(`the credential store's ${FORGE_APPS_INDEX} entry is not a list of App ids; remove it and store the Apps again with svc setup forge`);
  }
  return ids as number[];
}

/** Checks and stores an App (replacing one with the same id). The key must parse. */
export async function storeForgeApp(keys: CredentialStore, app: StoredApp): Promise<void> {
  if (!Number.isSafeInteger(app.appId) || app.appId <= 0) throw new InputError(`an App id is a positive number (GitHub shows it on the App's settings page), not ${String(app.appId)}`);
  const parsed = parseAppKey(app.privateKey);
  if ('problem' in parsed) throw new InputError(`the private key for App ${app.appId} cannot be used: ${parsed.problem}`);
  await keys.set(appEntryName(app.appId), JSON.stringify({ appId: app.appId, privateKey: app.privateKey, ...(app.webhookSecret === undefined ? {} : { webhookSecret: app.webhookSecret }) }));
  const ids = await readIndex(keys);
  if (!ids.includes(app.appId)) await keys.set(FORGE_APPS_INDEX, JSON.stringify([...ids, app.appId]));
}

/** Every stored App with its parsed key; a key that does not parse stops the start, naming the App and the fix. */
export async function loadForgeApps(keys: CredentialStore): Promise<LoadedApp[]> {
  const apps: LoadedApp[] = [];
  for (const appId of await readIndex(keys)) {
    const text = await keys.get(appEntryName(appId));
    if (text === undefined) throw new ConfigError(`forge App ${appId} is listed in the credential store but its entry ${appEntryName(appId)} is missing; ${fix(appId)}`);
    let entry: { privateKey?: unknown; webhookSecret?: unknown };
    try {
      entry = JSON.parse(text) as typeof entry;
    } catch {
      throw new ConfigError(`forge App ${appId}: the credential store's ${appEntryName(appId)} entry is not JSON; ${fix(appId)}`);
    }
    const parsed = typeof entry.privateKey === 'string' ? parseAppKey(entry.privateKey) : { problem: 'there is no private key' };
    if ('problem' in parsed) throw new ConfigError(`forge App ${appId}: its private key (credential ${appEntryName(appId)}) cannot be used: ${parsed.problem}; ${fix(appId)}`);
    apps.push({ appId, key: parsed.key, webhookSecret: typeof entry.webhookSecret === 'string' && entry.webhookSecret !== '' ? entry.webhookSecret : undefined });
  }
  return apps;
}

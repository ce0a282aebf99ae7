import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { ConfigError } from '../../core/kernel/index.js';
import { checkName, checkScope, checkValue, type Scope } from './scope.js';
import { CONFIG_SEALED_PREFIX, openConfigSecret, type SecretsKey } from './sealing.js';

/**
 * Where a secret comes from, highest precedence first for one scope and name: the service-manager
 * credential (rule 11), `svc secret set` (the store), the config file's sealed `[secrets]` maps.
 */
export type SecretSource = 'credential' | 'store' | 'config';

/** Rank among sources for the same scope and name (higher wins). */
export const SOURCE_RANK: Readonly<Record<SecretSource, number>> = { config: 0, store: 1, credential: 2 };

/** A secret read at start from the config file or the service-manager credential: fixed while the server runs. */
export interface FixedSecret {
  readonly scope: Scope;
  readonly name: string;
  /** The plain value. */
  readonly value: string;
  readonly source: 'config' | 'credential';
  /** Epoch milliseconds: when the file holding it was last modified. */
  readonly updatedAt: number;
}

/** The name of the service-manager credential holding plain secret maps (`LoadCredentialEncrypted=svc-secrets:...`). */
export const OVERLAY_CREDENTIAL_NAME = 'svc-secrets';

/** One entry of `[secrets]` tables: its scope and name, the text written, and how to find it in the file. */
interface MapEntry {
  readonly scope: Scope;
  readonly name: string;
  readonly text: string;
  readonly where: string;
}

const quoted = (key: string): string => (/^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key));

/** The TOML table header of a scope: `[secrets.global]`, `[secrets.repository."o/r"]`, `[secrets.environment."o/r".prod]`. */
export function tableHeader(scope: Scope): string {
  if (scope.repository === undefined) return '[secrets.global]';
  if (scope.environment === undefined) return `[secrets.repository.${quoted(scope.repository)}]`;
  return `[secrets.environment.${quoted(scope.repository)}.${quoted(scope.environment)}]`;
}

const isTable = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/**
 * Every entry of `secrets` tables (`global`, `repository."o/r"`, `environment."o/r".<env>`), each
 * name and scope checked by the store's rules; problems are collected, each naming the entry
 * (never its value).
 */
function mapEntries(secrets: unknown, problems: string[]): MapEntry[] {
  const entries: MapEntry[] = [];
  if (secrets === undefined) return entries;
  if (!isTable(secrets)) {
    problems.push('secrets: must be a table ([secrets.global], [secrets.repository."owner/repo"], [secrets.environment."owner/repo".<env>])');
    return entries;
  }
  const addMap = (map: unknown, scopeParts: readonly [string?, string?]): void => {
    let scope: Scope;
    try {
      scope = checkScope(scopeParts[0], scopeParts[1]);
    } catch (error) {
      problems.push(`secrets: ${(error as Error).message}`);
      return;
    }
    const header = tableHeader(scope);
    if (!isTable(map)) {
      problems.push(`${header}: must be a table of NAME = "value" lines`);
      return;
    }
    for (const [name, text] of Object.entries(map)) {
      const where = `${header} ${name}`;
      try {
        checkName('secret', name);
      } catch (error) {
        problems.push(`${where}: ${(error as Error).message}`);
        continue;
      }
      if (typeof text !== 'string') {
        problems.push(`${where}: must be a string`);
        continue;
      }
      entries.push({ scope, name, text, where });
    }
  };
  for (const [key, value] of Object.entries(secrets)) {
    if (key === 'global') addMap(value, []);
    else if (key === 'repository' && isTable(value)) for (const [repository, map] of Object.entries(value)) addMap(map, [repository]);
    else if (key === 'environment' && isTable(value)) {
      for (const [repository, environments] of Object.entries(value)) {
        if (!isTable(environments)) problems.push(`[secrets.environment.${quoted(repository)}]: must hold one table per environment`);
        else for (const [environment, map] of Object.entries(environments)) addMap(map, [repository, environment]);
      }
    } else problems.push(`secrets.${key}: unknown; the tables are [secrets.global], [secrets.repository."owner/repo"] and [secrets.environment."owner/repo".<env>]`);
  }
  return entries;
}

function fail(what: string, problems: readonly string[], code: string): never {
  throw new ConfigError(`${what}: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  - ${p}`).join('\n')}`, {
    code,
    details: { problems },
  });
}

function modifiedAt(path: string | undefined, fallback: number): number {
  if (path === undefined) return fallback;
  try {
    return statSync(path).mtimeMs;
  } catch {
    return fallback;
  }
}

/**
 * The config file's sealed `[secrets]` maps, opened with the secrets key. An entry that is not a
 * sealed value, or does not open (tampered, copied to another name or scope, sealed under another
 * installation's key), stops the start naming the entry.
 */
export function openConfigSecrets(secrets: unknown, key: SecretsKey, configFile: string | undefined, now: number): FixedSecret[] {
  const file = configFile ?? 'the config file';
  const problems: string[] = [];
  const opened: FixedSecret[] = [];
  const updatedAt = modifiedAt(configFile, now);
  for (const entry of mapEntries(secrets, problems)) {
    if (!entry.text.trim().startsWith(CONFIG_SEALED_PREFIX)) {
      problems.push(`${entry.where}: not a sealed value (expected '${CONFIG_SEALED_PREFIX}...'); seal it with: svc secret seal ${entry.name}${scopeFlags(entry.scope)}`);
      continue;
    }
    const value = openConfigSecret(key, entry.scope, entry.name, entry.text);
    if (value === undefined) {
      problems.push(`${entry.where}: does not open with this installation's secrets key (damaged, moved to another name or scope, or sealed by another installation); seal it again with: svc secret seal ${entry.name}${scopeFlags(entry.scope)}`);
      continue;
    }
    opened.push({ scope: entry.scope, name: entry.name, value, source: 'config', updatedAt });
  }
  if (problems.length > 0) fail(`${file} [secrets]`, problems, 'secrets_config_invalid');
  return opened;
}

function scopeFlags(scope: Scope): string {
  return `${scope.repository === undefined ? '' : ` --repo ${scope.repository}`}${scope.environment === undefined ? '' : ` --env ${scope.environment}`}`;
}

/**
 * Rule 11: the service-manager credential `svc-secrets` under `$CREDENTIALS_DIRECTORY` (systemd
 * decrypts it there for the service), TOML of the config file's `[secrets]` shape with plain
 * values. Absent directory or file: no overlay. A malformed file stops the start naming the entry.
 */
export function readCredentialOverlay(credentialsDirectory: string | undefined, now: number): FixedSecret[] {
  if (credentialsDirectory === undefined) return [];
  const path = join(credentialsDirectory, OVERLAY_CREDENTIAL_NAME);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new ConfigError(`cannot read the service-manager credential ${path}: ${(error as Error).message}`, { code: 'secrets_credential_invalid' });
  }
  const what = `the service-manager credential ${path}`;
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    // The parser's message quotes the offending line, which may hold a value: only its position is shown.
    const { line, column } = error as { line?: number; column?: number };
    throw new ConfigError(`${what} is not valid TOML (line ${line ?? '?'}, column ${column ?? '?'}); it holds [secrets.global], [secrets.repository."owner/repo"] and [secrets.environment."owner/repo".<env>] tables of NAME = "value"`, {
      code: 'secrets_credential_invalid',
    });
  }
  const problems: string[] = [];
  for (const key of Object.keys(data as Record<string, unknown>)) if (key !== 'secrets') problems.push(`${key}: unknown; this credential holds [secrets.*] tables only`);
  const updatedAt = modifiedAt(path, now);
  const values: FixedSecret[] = [];
  for (const entry of mapEntries((data as Record<string, unknown>)['secrets'], problems)) {
    try {
      checkValue('secret', entry.name, entry.text);
    } catch (error) {
      problems.push(`${entry.where}: ${(error as Error).message}`);
      continue;
    }
    values.push({ scope: entry.scope, name: entry.name, value: entry.text, source: 'credential', updatedAt });
  }
  if (problems.length > 0) fail(what, problems, 'secrets_credential_invalid');
  return values;
}

import type { Clock } from '../../core/ports/index.js';
import { ConflictError, NotFoundError } from '../../core/kernel/index.js';
import { OVERLAY_CREDENTIAL_NAME, SOURCE_RANK, type FixedSecret, type SecretSource } from './fixed-sources.js';
import { appliesTo, compareRows, sameScope, type RowFilter, type StoredRow, type ValueRows } from './rows.js';
import { checkName, checkValue, describeScope, type Scope, type ValueKind } from './scope.js';
import { openSecret, sealSecret, type SecretsKey } from './sealing.js';

/** A listed entry: a secret's value is never listed. */
export interface ListedValue {
  readonly name: string;
  readonly scope: Scope;
  readonly updatedAt: number;
  /** Variables only. */
  readonly value?: string;
  /** Where it comes from (variables: always the store). */
  readonly source: SecretSource;
  /** False when a source of higher precedence holds the same scope and name (secrets only). */
  readonly inEffect: boolean;
}

/** Where a job runs, for `resolve`. */
export interface ValueTarget {
  readonly repository: string;
  readonly environment?: string;
}

/** Secrets and variables by scope; secrets sealed before they reach the rows. */
export interface SecretStore {
  set(kind: ValueKind, scope: Scope, name: string, value: string): Promise<void>;
  list(kind: ValueKind, filter: RowFilter): Promise<ListedValue[]>;
  /**
   * Throws NotFoundError naming the scope when there is none, ConflictError when the secret comes
   * from the service-manager credential or only from the config file (fixed while running).
   */
  remove(kind: ValueKind, scope: Scope, name: string): Promise<void>;
  /**
   * The values a job in `target` sees, by the spec's precedence: environment > repository >
   * global; for one scope and name, the service-manager credential > the store > the config file.
   */
  resolve(kind: ValueKind, target: ValueTarget): Promise<Record<string, string>>;
}

/** Rank of a row for `target` (higher wins), or -1 when it does not apply. */
export function precedence(scope: Scope, target: ValueTarget): number {
  if (scope.repository === undefined) return 0;
  if (scope.repository !== target.repository) return -1;
  if (scope.environment === undefined) return 1;
  return scope.environment === target.environment ? 2 : -1;
}

/** Secrets fixed at start: the config file's sealed maps and the service-manager credential (fixed-sources.ts). */
export interface FixedSecrets {
  readonly config?: readonly FixedSecret[];
  readonly credential?: readonly FixedSecret[];
}

/** A candidate for one name: a stored row or a fixed secret. */
interface Candidate {
  readonly scope: Scope;
  readonly name: string;
  readonly source: SecretSource;
  readonly updatedAt: number;
  readonly row?: StoredRow;
  readonly value?: string;
}

export function createSecretStore(deps: { readonly rows: ValueRows; readonly key: SecretsKey; readonly clock: Clock; readonly fixed?: FixedSecrets }): SecretStore {
  const { rows, key, clock } = deps;
  const fixed: readonly FixedSecret[] = [...(deps.fixed?.config ?? []), ...(deps.fixed?.credential ?? [])];
  const plain = (candidate: Candidate): string => {
    const row = candidate.row;
    if (row === undefined) return candidate.value ?? '';
    return row.kind === 'secret' ? openSecret(key, row.scope, row.name, row.value) : row.value;
  };
  const fixedAt = (source: FixedSecret['source'], scope: Scope, name: string): FixedSecret | undefined =>
    fixed.find((entry) => entry.source === source && entry.name === name && sameScope(entry.scope, scope));
  const candidates = async (kind: ValueKind, filter: RowFilter): Promise<Candidate[]> => {
    const stored: Candidate[] = (await rows.list(kind, filter)).map((row) => ({ scope: row.scope, name: row.name, source: 'store', updatedAt: row.updatedAt, row }));
    if (kind !== 'secret') return stored;
    return [...stored, ...fixed.filter((entry) => appliesTo(entry.scope, filter)).map((entry) => ({ ...entry }))];
  };
  return {
    async set(kind, scope, name, value) {
      checkName(kind, name);
      checkValue(kind, name, value);
      if (kind === 'secret' && fixedAt('credential', scope, name) !== undefined) {
        throw new ConflictError(
          `secret ${name} (${describeScope(scope)}) comes from the service-manager credential '${OVERLAY_CREDENTIAL_NAME}', which takes precedence, so a value set here would never be used: change it in that credential and restart the service`,
          { code: 'secret_from_credential' },
        );
      }
      const stored = kind === 'secret' ? sealSecret(key, scope, name, value) : value;
      await rows.put({ kind, scope, name, value: stored, updatedAt: clock.now() });
    },
    async list(kind, filter) {
      const all = await candidates(kind, filter);
      const best = new Map<string, number>();
      const id = (entry: Candidate) => JSON.stringify([entry.scope.repository ?? '', entry.scope.environment ?? '', entry.name]);
      for (const entry of all) best.set(id(entry), Math.max(best.get(id(entry)) ?? -1, SOURCE_RANK[entry.source]));
      const order = (a: Candidate, b: Candidate) =>
        compareRows({ kind, scope: a.scope, name: a.name, value: '', updatedAt: 0 }, { kind, scope: b.scope, name: b.name, value: '', updatedAt: 0 }) ||
        SOURCE_RANK[b.source] - SOURCE_RANK[a.source];
      return all.sort(order).map((entry) => ({
        name: entry.name,
        scope: entry.scope,
        updatedAt: entry.updatedAt,
        source: entry.source,
        inEffect: best.get(id(entry)) === SOURCE_RANK[entry.source],
        ...(kind === 'var' && entry.row !== undefined ? { value: entry.row.value } : {}),
      }));
    },
    async remove(kind, scope, name) {
      checkName(kind, name);
      const what = kind === 'secret' ? 'secret' : 'variable';
      if (kind === 'secret' && fixedAt('credential', scope, name) !== undefined) {
        throw new ConflictError(
          `secret ${name} (${describeScope(scope)}) comes from the service-manager credential '${OVERLAY_CREDENTIAL_NAME}' and cannot be removed while the server runs: remove it from that credential (systemd-creds encrypt the edited file again) and restart the service`,
          { code: 'secret_from_credential' },
        );
      }
      if (!(await rows.delete(kind, scope, name))) {
        if (kind === 'secret' && fixedAt('config', scope, name) !== undefined) {
          throw new ConflictError(
            `secret ${name} (${describeScope(scope)}) comes from the config file's [secrets] tables and cannot be removed through the API: delete its line from the config file and restart the service`,
            { code: 'secret_from_config' },
          );
        }
        throw new NotFoundError(`no ${what} ${name} in scope ${describeScope(scope)}`, { code: 'not_found' });
      }
    },
    async resolve(kind, target) {
      const chosen = new Map<string, { rank: number; candidate: Candidate }>();
      for (const candidate of await candidates(kind, { repository: target.repository })) {
        const scopeRank = precedence(candidate.scope, target);
        if (scopeRank < 0) continue;
        const rank = scopeRank * 3 + SOURCE_RANK[candidate.source];
        const held = chosen.get(candidate.name);
        if (held === undefined || held.rank < rank) chosen.set(candidate.name, { rank, candidate });
      }
      return Object.fromEntries([...chosen].map(([name, { candidate }]) => [name, plain(candidate)]));
    },
  };
}

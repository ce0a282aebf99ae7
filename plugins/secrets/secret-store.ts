import type { Clock } from '../../core/ports/index.js';
import { NotFoundError } from '../../core/kernel/index.js';
import type { RowFilter, StoredRow, ValueRows } from './rows.js';
import { checkName, checkValue, describeScope, type Scope, type ValueKind } from './scope.js';
import { openSecret, sealSecret, type SecretsKey } from './sealing.js';

/** A listed entry: a secret's value is never listed. */
export interface ListedValue {
  readonly name: string;
  readonly scope: Scope;
  readonly updatedAt: number;
  /** Variables only. */
  readonly value?: string;
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
  /** Throws NotFoundError naming the scope when there is none. */
  remove(kind: ValueKind, scope: Scope, name: string): Promise<void>;
  /** The values a job in `target` sees, by the spec's precedence: environment > repository > global. */
  resolve(kind: ValueKind, target: ValueTarget): Promise<Record<string, string>>;
}

/** Rank of a row for `target` (higher wins), or -1 when it does not apply. */
export function precedence(scope: Scope, target: ValueTarget): number {
  if (scope.repository === undefined) return 0;
  if (scope.repository !== target.repository) return -1;
  if (scope.environment === undefined) return 1;
  return scope.environment === target.environment ? 2 : -1;
}

export function createSecretStore(deps: { readonly rows: ValueRows; readonly key: SecretsKey; readonly clock: Clock }): SecretStore {
  const { rows, key, clock } = deps;
  const plain = (row: StoredRow): string => (row.kind === 'secret' ? openSecret(key, row.scope, row.name, row.value) : row.value);
  return {
    async set(kind, scope, name, value) {
      checkName(kind, name);
      checkValue(kind, name, value);
      const stored = kind === 'secret' ? sealSecret(key, scope, name, value) : value;
      await rows.put({ kind, scope, name, value: stored, updatedAt: clock.now() });
    },
    async list(kind, filter) {
      return (await rows.list(kind, filter)).map((row) => ({ name: row.name, scope: row.scope, updatedAt: row.updatedAt, ...(kind === 'var' ? { value: row.value } : {}) }));
    },
    async remove(kind, scope, name) {
      checkName(kind, name);
      if (!(await rows.delete(kind, scope, name))) {
        throw new NotFoundError(`no ${kind === 'secret' ? 'secret' : 'variable'} ${name} in scope ${describeScope(scope)}`, { code: 'not_found' });
      }
    },
    async resolve(kind, target) {
      const chosen = new Map<string, { rank: number; row: StoredRow }>();
      for (const row of await rows.list(kind, { repository: target.repository })) {
        const rank = precedence(row.scope, target);
        const held = chosen.get(row.name);
        if (rank >= 0 && (held === undefined || held.rank < rank)) chosen.set(row.name, { rank, row });
      }
      return Object.fromEntries([...chosen].map(([name, { row }]) => [name, plain(row)]));
    },
  };
}

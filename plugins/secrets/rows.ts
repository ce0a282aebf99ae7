import type { Scope, ValueKind } from './scope.js';

/** One stored row: a secret's value is sealed here, a variable's is plain. */
export interface StoredRow {
  readonly kind: ValueKind;
  readonly scope: Scope;
  readonly name: string;
  readonly value: string;
  /** Epoch milliseconds. */
  readonly updatedAt: number;
}

/** Which rows a listing returns: all of a kind, or those that apply to one repository (global, the repository, its environments). */
export interface RowFilter {
  readonly repository?: string;
}

/** The storage port under the secret store: the database's table, or memory (`secrets_store = "memory"`). */
export interface ValueRows {
  put(row: StoredRow): Promise<void>;
  list(kind: ValueKind, filter: RowFilter): Promise<StoredRow[]>;
  /** True when a row was there. */
  delete(kind: ValueKind, scope: Scope, name: string): Promise<boolean>;
  /** One secret row, if any: the start checks the key opens it. */
  anySecret(): Promise<StoredRow | undefined>;
}

export function sameScope(a: Scope, b: Scope): boolean {
  return (a.repository ?? '') === (b.repository ?? '') && (a.environment ?? '') === (b.environment ?? '');
}

export function appliesTo(scope: Scope, filter: RowFilter): boolean {
  return filter.repository === undefined || scope.repository === undefined || scope.repository === filter.repository;
}

/** Global first, then by repository, environment and name. */
export function compareRows(a: StoredRow, b: StoredRow): number {
  const key = (row: StoredRow) => [row.scope.repository ?? '', row.scope.environment ?? '', row.name];
  const [x, y] = [key(a), key(b)];
  for (let i = 0; i < x.length; i++) {
    const order = (x[i] ?? '').localeCompare(y[i] ?? '');
    if (order !== 0) return order;
  }
  return 0;
}

/** Mutations kept in this process only. */
export function memoryRows(): ValueRows {
  const rows = new Map<string, StoredRow>();
  const id = (kind: ValueKind, scope: Scope, name: string) => JSON.stringify([kind, scope.repository ?? '', scope.environment ?? '', name]);
  return {
    async put(row) {
      rows.set(id(row.kind, row.scope, row.name), row);
    },
    async list(kind, filter) {
      return [...rows.values()].filter((row) => row.kind === kind && appliesTo(row.scope, filter)).sort(compareRows);
    },
    async delete(kind, scope, name) {
      return rows.delete(id(kind, scope, name));
    },
    async anySecret() {
      return [...rows.values()].find((row) => row.kind === 'secret');
    },
  };
}

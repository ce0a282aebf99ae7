/**
 * Lease helper: rows that are claimed by one worker at a time until an expiry.
 * Claims are single statements, so two claimers never both win; an expired lease can be taken
 * over by anyone. Times are epoch milliseconds from the injected clock.
 */
export interface LeaseTable {
  readonly table: string;
  /** Primary key column (text or integer). Default `id`. */
  readonly idColumn?: string;
  /** Column holding the owner's id, null when free. Default `lease_owner`. */
  readonly ownerColumn?: string;
  /** Column holding the expiry (epoch ms), null when free. Default `lease_expires_at`. */
  readonly expiresColumn?: string;
}

export interface ClaimNextOptions {
  readonly owner: string;
  readonly ttlMs: number;
  /** Extra equality filters the claimed row must satisfy (e.g. `{ state: 'received' }`). */
  readonly where?: Readonly<Record<string, string | number | boolean | null>>;
  /** Column to take the oldest row by. Default: the id column. */
  readonly orderBy?: string;
}

export type LeaseRow = Readonly<Record<string, unknown>>;

export interface Leases {
  /** Claims the first free (or expired) row matching `where`; undefined when none. */
  claimNext(table: LeaseTable, options: ClaimNextOptions): Promise<LeaseRow | undefined>;
  /** Claims one row by id when it is free or its lease expired. */
  claim(table: LeaseTable, id: string | number, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends a lease this owner still holds. False when it was lost. */
  renew(table: LeaseTable, id: string | number, owner: string, ttlMs: number): Promise<boolean>;
  /** Frees a lease this owner holds. False when it was not held. */
  release(table: LeaseTable, id: string | number, owner: string): Promise<boolean>;
}

/**
 * The operator's token permission ceiling (`[token_permissions_ceiling]`, spec Authentication
 * rule 13) applied to a job's token permissions, once, where the job is planned (plan-for.ts):
 * the job message's `system.github.token.permissions` (what the runner prints under "GITHUB_TOKEN
 * Permissions"), its OIDC URL, and what the runtime services and the checkout relay allow a job
 * token all read the capped set.
 *
 * Each scope is capped at its own key, else at `default`; a scope named by neither keeps the
 * workflow's level. `allow_create_approve_pr = false` caps `pull-requests` at `read`. Levels order
 * none < read < write < admin (a workflow asks at most `write`, so an `admin` limit caps nothing).
 * Without the table nothing changes. A job without `permissions:` gets GitHub's restricted default
 * set (DEFAULT_TOKEN_PERMISSIONS), which is capped like any other. GitHub caps silently at the
 * organisation's setting: the job runs with the lower levels and the runner prints them.
 */
import type { OperatorConfig } from '../../../core/kernel/index.js';
import type { Permissions } from '../../../core/workflow/index.js';

export type TokenCeiling = NonNullable<OperatorConfig['token_permissions_ceiling']>;

type CeilingLevel = 'none' | 'read' | 'write' | 'admin';
type WorkflowLevel = Permissions[string];

/** GitHub's token when a workflow sets no `permissions:` (the "restricted" default). */
export const DEFAULT_TOKEN_PERMISSIONS: Permissions = { contents: 'read', packages: 'read' };

/** A scope the ceiling lowered. */
export interface CappedScope {
  readonly scope: string;
  readonly requested: WorkflowLevel;
  readonly allowed: WorkflowLevel;
}

export interface CeilingResult {
  /** The job's token permissions: unchanged (`undefined` = the default set) without a ceiling. */
  readonly permissions: Permissions | undefined;
  /** What the ceiling lowered, in scope order; empty when nothing was. */
  readonly capped: readonly CappedScope[];
}

const RANK: Record<CeilingLevel, number> = { none: 0, read: 1, write: 2, admin: 3 };

export function applyTokenCeiling(requested: Permissions | undefined, ceiling: TokenCeiling | undefined): CeilingResult {
  if (ceiling === undefined) return { permissions: requested, capped: [] };
  const permissions: Record<string, WorkflowLevel> = {};
  const capped: CappedScope[] = [];
  const source = requested ?? DEFAULT_TOKEN_PERMISSIONS;
  for (const scope of Object.keys(source).sort()) {
    const level = source[scope] ?? 'none';
    const limit = limitOf(ceiling, scope);
    if (limit !== undefined && RANK[level] > RANK[limit]) {
      // The limit is below `level`, itself at most `write`: never `admin`.
      const allowed = limit as WorkflowLevel;
      permissions[scope] = allowed;
      capped.push({ scope, requested: level, allowed });
    } else {
      permissions[scope] = level;
    }
  }
  return { permissions, capped };
}

/** `contents: write -> read, id-token: write -> none`: what a log line says was capped. */
export function describeCapped(capped: readonly CappedScope[]): string {
  return capped.map(({ scope, requested, allowed }) => `${scope}: ${requested} -> ${allowed}`).join(', ');
}

function limitOf(ceiling: TokenCeiling, scope: string): CeilingLevel | undefined {
  const own = (ceiling as Readonly<Record<string, unknown>>)[scope];
  const limit = isCeilingLevel(own) ? own : ceiling.default;
  if (scope !== 'pull-requests' || ceiling.allow_create_approve_pr !== false) return limit;
  return limit === undefined || RANK[limit] > RANK.read ? 'read' : limit;
}

function isCeilingLevel(value: unknown): value is CeilingLevel {
  return value === 'none' || value === 'read' || value === 'write' || value === 'admin';
}

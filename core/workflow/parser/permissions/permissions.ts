/**
 * Fix "permissions-model": GitHub's parser turns `permissions:` (workflow, job, called workflow)
 * into a permission set, copies the workflow's set to jobs that have none, and checks what called
 * workflows request against what their caller grants. The TypeScript converter keeps none of it.
 *
 * A set maps scope → level; a missing scope is `none`. `read-all` / `write-all` grant the scopes of
 * ALL_SCOPES, GitHub's list (in its order, which its messages use) as of the conformance corpus;
 * newer scopes (attestations, models, ...) count when named explicitly.
 */
import { TokenType } from '@actions/workflow-parser/templates/tokens/types';
import type { MappingToken, StringToken, TemplateToken } from '@actions/workflow-parser/templates/tokens/index';

export type PermissionLevel = 'none' | 'read' | 'write';
export type Permissions = Readonly<Record<string, PermissionLevel>>;

export const ALL_SCOPES = [
  'actions',
  'checks',
  'contents',
  'deployments',
  'discussions',
  'issues',
  'packages',
  'pages',
  'pull-requests',
  'repository-projects',
  'statuses',
  'security-events',
  'id-token',
] as const;

const RANK: Record<PermissionLevel, number> = { none: 0, read: 1, write: 2 };

/** The set a `permissions:` value declares (the schema has validated its shape already). */
export function permissionsFromToken(token: TemplateToken): Permissions {
  if (token.templateTokenType === TokenType.String) {
    const value = (token as StringToken).value;
    return everyScope(value === 'write-all' ? 'write' : value === 'read-all' ? 'read' : 'none');
  }
  const result: Record<string, PermissionLevel> = {};
  if (token.templateTokenType !== TokenType.Mapping) return result;
  for (const pair of token as MappingToken) {
    const level = pair.value.templateTokenType === TokenType.String ? (pair.value as StringToken).value : 'none';
    result[pair.key.toString()] = isLevel(level) ? level : 'none';
  }
  return result;
}

/** The ceiling for a called workflow whose caller grants nothing explicitly. */
export function permissionsFromPolicy(policy: 'LimitedRead' | 'Write', trusted: boolean): Permissions {
  if (policy === 'Write') return { ...everyScope('write'), 'id-token': trusted ? 'write' : 'none' };
  return { ...everyScope('none'), contents: 'read', packages: 'read' };
}

export interface PermissionViolation {
  readonly scope: string;
  readonly requested: PermissionLevel;
  readonly allowed: PermissionLevel;
}

/** Scopes where `requested` exceeds `max`, GitHub's scopes first in GitHub's order. */
export function permissionViolations(requested: Permissions, max: Permissions): PermissionViolation[] {
  const extra = Object.keys(requested)
    .filter((scope) => !(ALL_SCOPES as readonly string[]).includes(scope))
    .sort();
  const result: PermissionViolation[] = [];
  for (const scope of [...ALL_SCOPES, ...extra]) {
    const want = requested[scope] ?? 'none';
    const allowed = max[scope] ?? 'none';
    if (RANK[want] > RANK[allowed]) result.push({ scope, requested: want, allowed });
  }
  return result;
}

/** The JSON GitHub writes for a set: scopes in alphabetical order, `none` left out. */
export function serializePermissions(permissions: Permissions): Record<string, PermissionLevel> {
  const result: Record<string, PermissionLevel> = {};
  for (const scope of Object.keys(permissions).sort()) {
    const level = permissions[scope];
    if (level !== undefined && level !== 'none') result[scope] = level;
  }
  return result;
}

function everyScope(level: PermissionLevel): Record<string, PermissionLevel> {
  return Object.fromEntries(ALL_SCOPES.map((scope) => [scope, level]));
}

function isLevel(value: string): value is PermissionLevel {
  return value === 'none' || value === 'read' || value === 'write';
}

/**
 * Fix "called-workflow-permissions": a called workflow may not request more token permissions
 * than its caller job has (or, when the caller sets none, than the repository's policy allows).
 * GitHub reports each breach at the caller job's id; the TypeScript parser does not check.
 */
import type { ConvertedReusableWorkflowJob, ConvertedWorkflowJob } from '../model-types.js';
import type { ParseContext } from '../parse-context.js';
import { permissionViolations, permissionsFromPolicy } from '../permissions/permissions.js';
import type { Permissions } from '../permissions/permissions.js';
import type { PermissionsPolicy } from '../types.js';
import { siteOf } from '../convert/error-site.js';

export interface PermissionCeiling {
  /** What the caller job grants, if it says. */
  readonly explicit: Permissions | undefined;
  readonly policy: PermissionsPolicy;
  /** Trusted called workflows may get `id-token: write` under the Write policy. */
  readonly trusted: boolean;
}

export function checkRequestedPermissions(
  context: ParseContext,
  caller: ConvertedReusableWorkflowJob,
  nestedJob: ConvertedWorkflowJob | undefined,
  requested: Permissions,
  ceiling: PermissionCeiling,
): void {
  const max = ceiling.explicit ?? permissionsFromPolicy(ceiling.policy, ceiling.trusted);
  const violations = permissionViolations(requested, max);
  if (violations.length === 0) return;
  const wanted = violations.map((v) => `${v.scope}: ${v.requested}`).join(', ');
  const allowed = violations.map((v) => `${v.scope}: ${v.allowed}`).join(', ');
  const ref = caller.ref.value;
  const who = nestedJob === undefined ? `The workflow '${ref}'` : `The nested job '${nestedJob.name?.toString() ?? nestedJob.id.value}'`;
  context.collector.add(
    siteOf(context, caller.id),
    `Error calling workflow '${ref}'. ${who} is requesting '${wanted}', but is only allowed '${allowed}'.`,
  );
}

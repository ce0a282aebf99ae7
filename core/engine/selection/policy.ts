import type { Json, TriggerSource } from '../model/records.js';

/**
 * Policy hooks on run creation. Plugins (execution protection, fork gate, environments, token
 * ceilings) review each run an event would create: allow it, deny it (no run is created; the
 * submission reports why), or hold it behind a named gate (the run is created `pending` and
 * does nothing until the gate is released, or is failed when the gate closes).
 */
export interface RunCandidate {
  readonly repository: string;
  readonly workflowPath: string;
  readonly workflowName: string;
  readonly event: string;
  readonly ref: string;
  readonly sha: string;
  readonly actor: string;
  readonly trigger: TriggerSource;
  readonly payload: Json;
}

export type PolicyVerdict =
  | { readonly action: 'allow' }
  | { readonly action: 'deny'; readonly reason: string }
  | { readonly action: 'hold'; readonly gate: string; readonly reason: string };

export interface SelectionPolicy {
  /** Names the policy in denials and logs, e.g. `execution-protection`. */
  readonly name: string;
  review(candidate: RunCandidate): PolicyVerdict | Promise<PolicyVerdict>;
}

/** The first denial wins; otherwise the first hold; otherwise allowed. */
export async function reviewCandidate(policies: readonly SelectionPolicy[], candidate: RunCandidate): Promise<PolicyVerdict & { readonly policy?: string }> {
  let hold: (PolicyVerdict & { readonly policy: string }) | undefined;
  for (const policy of policies) {
    const verdict = await policy.review(candidate);
    if (verdict.action === 'deny') return { ...verdict, policy: policy.name };
    if (verdict.action === 'hold' && hold === undefined) hold = { ...verdict, policy: policy.name };
  }
  return hold ?? { action: 'allow' };
}

/** Extension point contributors add policies through (provided by the engine plugin). */
export interface SelectionPolicies {
  add(policy: SelectionPolicy): void;
}

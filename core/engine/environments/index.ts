/** Environments of jobs: their protection rules (deployment refs, wait timer, reviewer) and approvals. */
export { applyEnvironmentGates } from './apply-gates.js';
export { approveJob, type ApprovalResult } from './approve-job.js';
export { deploymentPatternMatches } from './deployment-patterns.js';
export {
  APPROVAL_REASON,
  environmentGate,
  environmentHoldText,
  environmentRulesFrom,
  refNotAllowed,
  WAIT_TIMER_REASON,
  waitingText,
  type EnvironmentRule,
  type EnvironmentRules,
  type GateVerdict,
} from './environment-gate.js';

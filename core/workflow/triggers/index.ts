/**
 * Trigger matching for workflows: which events run a workflow (`on:` with its activity types
 * and branch, tag, path and workflow filters, in GitHub's filter-pattern syntax), and the checks
 * on what a dispatch brings (workflow_dispatch and workflow_call inputs, repository dispatch
 * bodies). Pure functions over plain data.
 */
export type { JsonObject, JsonPrimitive, JsonValue, OnSection, TriggerEvent, TriggerResult } from './types.js';
export { matchTrigger, triggerEvents, validateOn } from './match-trigger.js';
export { declaredInputs } from './on-section.js';
export { defaultActivityTypes } from './activity-types.js';
export { PATH_FILTER_FILE_LIMIT } from './ref-and-path-filters.js';
export { compileFilterPattern, type FilterPattern, type PatternCompilation } from './glob.js';
export {
  compileFilterList,
  isIgnored,
  isIncluded,
  matchFilterPatterns,
  type FilterList,
  type FilterListCompilation,
} from './filter-list.js';
export type { InputIssue, InputIssueCode, InputValue } from './input-declarations.js';
export {
  DISPATCH_INPUT_TYPES,
  resolveDispatchInputs,
  type DispatchInputsOptions,
  type DispatchInputsResolution,
  type UnexpectedInputs,
} from './dispatch-inputs.js';
export { CALL_INPUT_TYPES, resolveCallInputs, type CallInputsResolution } from './call-inputs.js';
export {
  EVENT_TYPE_MAX_CHARACTERS,
  checkRepositoryDispatchBody,
  type BodyIssue,
  type RepositoryDispatchBody,
} from './repository-dispatch.js';

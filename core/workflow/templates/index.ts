/**
 * Template evaluation: the parser's raw template tokens (`@actions/workflow-parser`) evaluated
 * against contexts the way GitHub and the runner do it, with each field's allowed contexts read
 * from the parser's workflow schema; `if:` conditions of jobs and steps; and the contexts model
 * (`github`, `runner`, `job`, `steps`, `needs`, ...) with its builders.
 */
export {
  evaluateTemplate,
  evaluateTemplateAsync,
  evaluateTemplateValue,
  type EvaluateTemplateOptions,
} from './evaluate-template.js';
export {
  ACTION_ROOT,
  allowedContextsFor,
  allowedNamesFor,
  fieldDefinition,
  WORKFLOW_ROOT,
  type FieldDefinition,
} from './field-contexts.js';
export {
  evaluateActionStageIf,
  evaluateJobIf,
  evaluateStepIf,
  evaluateStepIfAsync,
  ifConditionText,
  type ActionStageIfOptions,
  type IfCondition,
  type JobIfOptions,
  type StepIfOptions,
} from './if-conditions.js';
export { parserSchema, type ParserSchemaKind } from './parser-schema.js';
export {
  MAX_TEMPLATE_ERROR_LENGTH,
  MAX_TEMPLATE_ERRORS,
  TemplateErrorList,
  TemplateEvaluationError,
  type TemplateError,
  type TemplatePlace,
} from './template-errors.js';
export { readTemplateTokens, type ReadTemplateOptions, type ReadTemplateResult } from './read-template.js';
export { readBoolean, readNumber, readString, readStringMap, type ReadOptions } from './template-readers.js';
export { literalText, tokenToValue, valueToToken } from './token-values.js';
export * from './contexts/index.js';

/**
 * From the workflow model to the runner's wire model: the parser's template tokens as
 * core/protocol TemplateTokens (positions kept, so the runner's messages point into the file
 * table), and plain context values as PipelineContextData. The job-message builder encodes both.
 */
export { toProtocolScalar, toProtocolToken, tokenPosition } from './protocol-token.js';
export { contextDataMap, contextDataOf } from './context-data.js';

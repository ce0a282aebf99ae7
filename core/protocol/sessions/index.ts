export { BASE64_PATTERN, DATE_TIME_PATTERN, EMPTY_GUID, GUID_PATTERN, TIME_SPAN_PATTERN, base64Schema, baseUrlSchema, dateTimeSchema, guidSchema, timeSpanSchema } from './schema-parts.js';
export type { AnnotationLevelName, TaskAgentStatusName, TaskAgentStatusQueryValue, TaskResultName, TimelineRecordStateName } from './enums.js';
export {
  ANNOTATION_LEVELS,
  TASK_AGENT_STATUSES,
  TASK_AGENT_STATUS_QUERY_VALUES,
  TASK_RESULTS,
  TIMELINE_RECORD_STATES,
  annotationLevelSchema,
  taskAgentStatusSchema,
  taskResultSchema,
  timelineRecordStateSchema,
} from './enums.js';
export { formatTimeSpan, parseTimeSpan } from './time-span.js';
export type { TaskAgentReference, TaskAgentSessionKey, TaskAgentSessionRequest, TaskAgentSessionResponse } from './task-agent-session.js';
export { taskAgentReferenceSchema, taskAgentSessionKeySchema, taskAgentSessionRequestSchema, taskAgentSessionResponseSchema } from './task-agent-session.js';
export type { MessageDeleteQuery, MessagePollQuery, MessageType, TaskAgentMessage } from './task-agent-message.js';
export { MessageTypes, messageDeleteQuerySchema, messagePollQuerySchema, messageTypeMatches, taskAgentMessageSchema } from './task-agent-message.js';
export type {
  AgentRefreshBody,
  BrokerMigrationBody,
  JobCancellationBody,
  JobMetadataBody,
  RunnerJobRequestBody,
  RunnerRefreshBody,
  RunnerRefreshConfigBody,
  RunnerShutdownBody,
} from './message-bodies.js';
export {
  agentRefreshBodySchema,
  brokerMigrationBodySchema,
  jobCancellationBodySchema,
  jobMetadataBodySchema,
  runnerJobRequestBodySchema,
  runnerRefreshBodySchema,
  runnerRefreshConfigBodySchema,
  runnerShutdownBodySchema,
} from './message-bodies.js';
export type { AcknowledgeQuery, AcknowledgeRequest, BrokerErrorBody, BrokerErrorKind, BrokerMessage, BrokerSessionRequest, BrokerSessionResponse } from './broker.js';
export {
  BROKER_ERROR_SOURCE,
  BROKER_ERROR_STATUS,
  BROKER_SESSION_STATUS,
  BrokerErrorKinds,
  acknowledgeQuerySchema,
  acknowledgeRequestSchema,
  brokerError,
  brokerErrorSchema,
} from './broker.js';
export type {
  AcquireJobRequest,
  CompleteJobRequest,
  RenewJobRequest,
  RenewJobResponse,
  RunServiceAnnotation,
  RunServiceErrorBody,
  RunServiceTelemetry,
  StepResult,
  VariableValue,
} from './run-service.js';
export {
  RUN_SERVICE_ERROR_SOURCE,
  acquireJobRequestSchema,
  completeJobRequestSchema,
  renewJobRequestSchema,
  renewJobResponseSchema,
  runServiceError,
  runServiceErrorSchema,
  stepResultSchema,
  variableValueSchema,
} from './run-service.js';
export type { JobRequestFinish, JobRequestQuery, JobRequestRenewal, JobRequestUpdate, TaskAgentJobRequest } from './job-request.js';
export {
  FINISH_FAILURE_REASON_KEY,
  isJobRequestFinish,
  jobRequestQuerySchema,
  jobRequestRenewalResponseSchema,
  jobRequestUpdateSchema,
  taskAgentJobRequestSchema,
} from './job-request.js';
export type { VssExceptionInfo, VssExceptionOptions, VssExceptionTypeKey, VssTypeResolution, VssWrappedException } from './vss-exception.js';
export { VSS_EXCEPTIONS, vssException, vssExceptionSchema, vssTypeName } from './vss-exception.js';

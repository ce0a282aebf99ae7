// The job message model and its decoder (internal to runner/worker).
export { LEGACY_MESSAGE_TYPE, RUN_SERVICE_MESSAGE_TYPE, decodeJobMessage, parseJobMessage } from './decode-job-message.js';
export { JobMessageError } from './wire-members.js';
export { variable, variableFlag } from './job-message-types.js';
export type {
  ActionStep,
  ActionsEnvironment,
  BackgroundControlStep,
  EndpointAuthorization,
  JobMessage,
  JobMode,
  JobPlan,
  JobStep,
  JobTimeline,
  JobVariable,
  MaskHint,
  ServiceEndpoint,
  StepBase,
} from './job-message-types.js';

// Enumerations that appear in session, job-request and run-service bodies. The runner writes enum
// members as camelCase names (VssJsonMediaTypeFormatter: StringEnumConverter with a camel-case
// naming strategy) and reads names in any case or integers; the schemas accept the camelCase
// names and the integers. Values: actions/runner src/Sdk/DTWebApi/WebApi/TaskResult.cs,
// TimelineRecordState.cs, TaskAgentStatus.cs, src/Sdk/RSWebApi/Contracts/AnnotationLevel.cs.

/** TaskResult names in code order (Succeeded = 0 … Abandoned = 5). */
export const TASK_RESULTS = ['succeeded', 'succeededWithIssues', 'failed', 'canceled', 'skipped', 'abandoned'] as const;
export type TaskResultName = (typeof TASK_RESULTS)[number];

/** TimelineRecordState names in code order (Pending = 0 … Delayed = 3). */
export const TIMELINE_RECORD_STATES = ['pending', 'inProgress', 'completed', 'delayed'] as const;
export type TimelineRecordStateName = (typeof TIMELINE_RECORD_STATES)[number];

/**
 * TaskAgentStatus (Offline = 1, Online = 2, Busy = 3). In a JSON body the runner writes the
 * camelCase name, or the bare integer 0 for an unset status (the session request's agent); in a
 * query string (`status=`) it writes the .NET name, PascalCase.
 */
export const TASK_AGENT_STATUSES = ['offline', 'online', 'busy'] as const;
export type TaskAgentStatusName = (typeof TASK_AGENT_STATUSES)[number];
export const TASK_AGENT_STATUS_QUERY_VALUES = ['Offline', 'Online', 'Busy'] as const;
export type TaskAgentStatusQueryValue = (typeof TASK_AGENT_STATUS_QUERY_VALUES)[number];

/** Run-service annotation levels (UNKNOWN = 0 … FAILURE = 3), camel-cased to lower case on the wire. */
export const ANNOTATION_LEVELS = ['unknown', 'notice', 'warning', 'failure'] as const;
export type AnnotationLevelName = (typeof ANNOTATION_LEVELS)[number];

function enumSchema<T extends readonly string[]>(names: T) {
  return { anyOf: [{ type: 'string', enum: names }, { type: 'integer', minimum: 0, maximum: names.length - 1 }] } as const;
}

export const taskResultSchema = enumSchema(TASK_RESULTS);
export const timelineRecordStateSchema = enumSchema(TIMELINE_RECORD_STATES);
export const annotationLevelSchema = enumSchema(ANNOTATION_LEVELS);
/** Body form of TaskAgentStatus: a name, or an integer (0 = unset, 1–3). */
export const taskAgentStatusSchema = { anyOf: [{ type: 'string', enum: TASK_AGENT_STATUSES }, { type: 'integer', minimum: 0, maximum: 3 }] } as const;

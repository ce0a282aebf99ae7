/**
 * Request schemas of the Worker's routes. Bodies are checked loosely here (the runner adds
 * members over versions, and reads and writes property names in any case) and strictly where
 * we use a value (timeline-record.ts, wire-enums.ts): what fails either is a 400 with the VSS
 * envelope, never a 500.
 */

const guid = { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' } as const;

const planParams = {
  scopeIdentifier: guid,
  hubName: { type: 'string', minLength: 1, maxLength: 100 },
  planId: guid,
} as const;

export const PlanParams = { type: 'object', required: ['scopeIdentifier', 'hubName', 'planId'], properties: planParams } as const;

export const TimelineParams = {
  type: 'object',
  required: ['scopeIdentifier', 'hubName', 'planId', 'timelineId'],
  properties: { ...planParams, timelineId: guid },
} as const;

export const RecordParams = {
  type: 'object',
  required: ['scopeIdentifier', 'hubName', 'planId', 'timelineId', 'recordId'],
  properties: { ...planParams, timelineId: guid, recordId: guid },
} as const;

export const AttachmentParams = {
  type: 'object',
  required: ['scopeIdentifier', 'hubName', 'planId', 'timelineId', 'recordId', 'type', 'name'],
  properties: { ...planParams, timelineId: guid, recordId: guid, type: { type: 'string', minLength: 1, maxLength: 200 }, name: { type: 'string', minLength: 1, maxLength: 400 } },
} as const;

export const LogParams = {
  type: 'object',
  required: ['scopeIdentifier', 'hubName', 'planId', 'logId'],
  properties: { ...planParams, logId: { type: 'integer', minimum: 1 } },
} as const;

export interface PlanParamsType {
  readonly scopeIdentifier: string;
  readonly hubName: string;
  readonly planId: string;
}
export interface TimelineParamsType extends PlanParamsType {
  readonly timelineId: string;
}
export interface RecordParamsType extends TimelineParamsType {
  readonly recordId: string;
}
export interface AttachmentParamsType extends RecordParamsType {
  readonly type: string;
  readonly name: string;
}
export interface LogParamsType extends PlanParamsType {
  readonly logId: number;
}

/** `{count, value}` of records (VssJsonCollectionWrapper); each record is checked by normalizeRecord. */
export const RecordsBody = {
  type: 'object',
  required: ['value'],
  properties: { count: { type: 'integer', minimum: 0 }, value: { type: 'array', maxItems: 1000, items: { type: 'object' } } },
} as const;
export interface RecordsBodyType {
  readonly count?: number;
  readonly value: readonly unknown[];
}

/** Timeline (POST …/timelines): only its id matters. */
export const TimelineBody = { type: 'object', required: ['id'], properties: { id: guid } } as const;
export interface TimelineBodyType {
  readonly id: string;
}

export const TimelineQuery = {
  type: 'object',
  properties: { includeRecords: { type: 'string' }, changeId: { type: 'string' } },
} as const;

/** TaskLog (POST …/logs): `path` is `logs\<recordId>`. */
export const CreateLogBody = { type: 'object', required: ['path'], properties: { path: { type: 'string', minLength: 1, maxLength: 1000 } } } as const;
export interface CreateLogBodyType {
  readonly path: string;
}

/** TimelineRecordFeedLinesWrapper. */
export const FeedBody = {
  type: 'object',
  required: ['value'],
  properties: {
    count: { type: 'integer', minimum: 0 },
    value: { type: 'array', maxItems: 10_000, items: { type: 'string' } },
    stepId: guid,
    startLine: { type: ['integer', 'null'] },
  },
} as const;
export interface FeedBodyType {
  readonly count?: number;
  readonly value: readonly string[];
  readonly stepId?: string;
  readonly startLine?: number | null;
}

/** A plan event (JobEvent): `name` selects the kind; JobCompleted is checked by plan-events-route.ts. */
export const PlanEventBody = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1 }, jobId: guid, requestId: { type: 'integer' }, outputs: { type: ['object', 'null'] } },
} as const;
export interface PlanEventBodyType {
  readonly name: string;
  readonly jobId?: string;
  readonly requestId?: number;
  readonly result?: unknown;
  readonly outputs?: Readonly<Record<string, unknown>> | null;
}

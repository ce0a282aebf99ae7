/**
 * The runner's enums as the Worker sends them (camelCase names; the SDK reads any case and
 * integers, so we accept those too, §0.3), and what they mean to the engine.
 * TaskResult and TimelineRecordState: core/protocol sessions/enums.ts; IssueType: actions/runner
 * src/Sdk/DTWebApi/WebApi/IssueType.cs (Error = 1, Warning = 2, Notice = 3).
 */
import { InputError } from '../../../core/kernel/index.js';
import type { AnnotationLevel, Conclusion, Status } from '../../../core/engine/index.js';
import { TASK_RESULTS, TIMELINE_RECORD_STATES, type TaskResultName, type TimelineRecordStateName } from '../../../core/protocol/index.js';
import { completionOf } from '../job-requests/index.js';

export const ISSUE_TYPES = ['error', 'warning', 'notice'] as const;
export type IssueTypeName = (typeof ISSUE_TYPES)[number];

/** A name in any case, or its code (`codes[0]` is the first name's code); null/undefined stay unset. */
function parseEnum<T extends string>(names: readonly T[], firstCode: number, value: unknown, field: string): T | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value)) {
    const name = names[value - firstCode];
    if (name !== undefined) return name;
  }
  if (typeof value === 'string') {
    const name = names.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
    if (name !== undefined) return name;
    if (/^\d+$/.test(value)) return parseEnum(names, firstCode, Number(value), field);
  }
  throw new InputError(`${field} ${JSON.stringify(value)} is not one of ${names.join(', ')} (or their codes)`, { code: 'invalid_enum' });
}

export const parseTaskResult = (value: unknown, field = 'result'): TaskResultName | undefined => parseEnum(TASK_RESULTS, 0, value, field);
export const parseRecordState = (value: unknown, field = 'state'): TimelineRecordStateName | undefined => parseEnum(TIMELINE_RECORD_STATES, 0, value, field);
export const parseIssueType = (value: unknown, field = 'issue type'): IssueTypeName | undefined => parseEnum(ISSUE_TYPES, 1, value, field);


/** A step's status and conclusion from its record's state and result. */
export function stepStatusOf(state: TimelineRecordStateName | undefined, result: TaskResultName | undefined): { readonly status: Status; readonly conclusion?: Conclusion } {
  if (state === 'completed' || (state === undefined && result !== undefined)) {
    // A completed record without a result has nothing to say against success.
    const outcome = result === undefined ? 'success' : completionOf(result).outcome;
    return { status: outcome, conclusion: outcome };
  }
  if (state === 'inProgress') return { status: 'in_progress' };
  return { status: 'pending' };
}

/** Issue type → annotation level (error, warning, notice keep their names). */
export function annotationLevelOf(type: IssueTypeName): AnnotationLevel {
  return type;
}

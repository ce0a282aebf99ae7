/**
 * What timeline records tell the engine: a step per `Task` record and an annotation per issue.
 *
 * - Step numbers are the records' `order` (1 = "Set up job", then the message's steps, post
 *   steps, "Complete job"): GitHub numbers a job's steps the same way.
 * - Issues (§4.2, §4.7) become annotations with their `data` location (`file`, `line`, `endLine`,
 *   `col`, `endColumn`, `title`; values are strings). The Worker re-sends each record with all
 *   its issues so far, and the list only grows, so the issues past the count already forwarded
 *   are the new ones.
 */
import type { AnnotationInput, StepReport } from '../../../core/engine/index.js';
import type { TaskResultName, TimelineRecordStateName } from '../../../core/protocol/index.js';
import type { RecordIssue, RecordView } from './timeline-record.js';
import { annotationLevelOf, stepStatusOf } from './wire-enums.js';

/**
 * A step as any of the runner's reports carries it: a timeline `Task` record (legacy), a
 * results `WorkflowStepsUpdate` step or a `completejob` step result (run-service mode), each
 * brought to the timeline's state and TaskResult names first. Times are epoch ms.
 */
export interface StepState {
  readonly number: number;
  readonly name: string | undefined;
  readonly state: TimelineRecordStateName | undefined;
  readonly result: TaskResultName | undefined;
  readonly startTime: number | undefined;
  readonly finishTime: number | undefined;
}

/** What the engine records for a step: one mapping for every wire, so both flows show steps alike. */
export function stepReportFrom(step: StepState): StepReport {
  const { status, conclusion } = stepStatusOf(step.state, step.result);
  return {
    number: step.number,
    name: step.name ?? `Step ${step.number}`,
    status,
    ...(conclusion === undefined ? {} : { conclusion }),
    ...(step.startTime === undefined ? {} : { startedAt: step.startTime }),
    ...(step.finishTime === undefined ? {} : { completedAt: step.finishTime }),
  };
}

/** The step a record is, or undefined for the job record and records without an order yet. */
export function stepReportOf(record: RecordView): StepReport | undefined {
  if (record.type?.toLowerCase() === 'job' || record.order === undefined || record.order < 0) return undefined;
  const { state, result, startTime, finishTime } = record;
  return stepReportFrom({ number: record.order, name: record.name ?? record.refName, state, result, startTime, finishTime });
}

function positiveInt(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

export function annotationOf(issue: RecordIssue): AnnotationInput {
  const data = issue.data;
  const title = data.get('title');
  const file = data.get('file');
  const startLine = positiveInt(data.get('line'));
  const endLine = positiveInt(data.get('endline'));
  const startColumn = positiveInt(data.get('col'));
  const endColumn = positiveInt(data.get('endcolumn'));
  return {
    level: annotationLevelOf(issue.type),
    message: issue.message,
    ...(title === undefined || title === '' ? {} : { title }),
    ...(file === undefined || file === '' ? {} : { file }),
    ...(startLine === undefined ? {} : { startLine }),
    ...(endLine === undefined ? {} : { endLine }),
    ...(startColumn === undefined ? {} : { startColumn }),
    ...(endColumn === undefined ? {} : { endColumn }),
  };
}

/** The issues of a record not forwarded yet (`sent` of them were). */
export function newAnnotations(record: RecordView, sent: number): AnnotationInput[] {
  return record.issues.slice(Math.max(0, sent)).map(annotationOf);
}

/**
 * Results steps (§4.6) in the timeline's terms, so they reach the engine through the same mapping
 * as legacy `Task` records (worker-api `stepReportFrom`). The runner converts its records the
 * other way (ResultsHttpClient: state → Status, TaskResult → Conclusion, succeededWithIssues
 * becoming success); this undoes it.
 */
import type { TaskResultName, TimelineRecordStateName } from '../../../core/protocol/index.js';
import { STEP_CONCLUSION_CODES, STEP_STATUS_CODES, type ResultsStep } from './schemas.js';
import type { StepUpdate } from './steps-store.js';

const STATES: ReadonlyMap<number, TimelineRecordStateName> = new Map([
  [STEP_STATUS_CODES.STATUS_IN_PROGRESS, 'inProgress'],
  [STEP_STATUS_CODES.STATUS_PENDING, 'pending'],
  [STEP_STATUS_CODES.STATUS_COMPLETED, 'completed'],
]);

const RESULTS: ReadonlyMap<number, TaskResultName> = new Map([
  [STEP_CONCLUSION_CODES.CONCLUSION_SUCCESS, 'succeeded'],
  [STEP_CONCLUSION_CODES.CONCLUSION_FAILURE, 'failed'],
  [STEP_CONCLUSION_CODES.CONCLUSION_CANCELLED, 'canceled'],
  [STEP_CONCLUSION_CODES.CONCLUSION_SKIPPED, 'skipped'],
]);

function code(value: number | string, names: Readonly<Record<string, number>>): number {
  return typeof value === 'number' ? value : (names[value] ?? 0);
}

/** Epoch ms of a results timestamp (the schema checked its form); a time without a zone is UTC. */
export function resultsTime(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const zoned = /(?:Z|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`;
  const ms = Date.parse(zoned);
  // .NET's DateTime.MinValue (`0001-01-01T00:00:00`) is the runner's "not set".
  return Number.isNaN(ms) || ms <= 0 ? undefined : ms;
}

export function stepUpdateOf(step: ResultsStep): StepUpdate {
  return {
    externalId: step.external_id.toLowerCase(),
    number: step.number,
    name: step.name ?? undefined,
    // Unknown (0) stays unset: the step is then pending, or finished if a conclusion came with it.
    state: STATES.get(code(step.status, STEP_STATUS_CODES)),
    result: step.conclusion === undefined ? undefined : RESULTS.get(code(step.conclusion, STEP_CONCLUSION_CODES)),
    startTime: resultsTime(step.started_at),
    finishTime: resultsTime(step.completed_at),
  };
}

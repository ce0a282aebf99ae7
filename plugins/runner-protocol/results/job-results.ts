/**
 * What `completejob` carries besides the conclusion (§4.7, §4.8): `stepResults` (each step's
 * final state, and the annotations of its issues) and job-level `annotations` (sent when
 * `actions_send_job_level_annotations` is on). In run-service mode these are the only annotations
 * the server gets (legacy mode has them as timeline issues). Steps go through the same mapping as
 * every other step report; annotations are stored once per job attempt: the runner retries
 * `completejob` up to five times, so they are claimed first, stored, then marked.
 */
import type { AnnotationInput, AnnotationLevel, Reporting } from '../../../core/engine/index.js';
import type { Logger } from '../../../core/kernel/index.js';
import type { Clock } from '../../../core/ports/index.js';
import { ANNOTATION_LEVELS, type RunServiceAnnotation, type StepResult } from '../../../core/protocol/index.js';
import { parseRecordState, parseTaskResult, stepReportFrom } from '../worker-api/index.js';
import { createClaims } from './claims-store.js';
import type { ResultsDb } from './results-tables.js';
import { resultsTime } from './step-wire.js';

/** The job a `completejob` reports for (checked by the run service to be the token's). */
export interface CompletedJob {
  readonly jobId: number;
  readonly runnerId: string;
  readonly jobRecordId: string;
}

export interface JobResultsInput {
  readonly stepResults?: readonly StepResult[] | undefined;
  readonly annotations?: readonly RunServiceAnnotation[] | undefined;
}

export interface JobResults {
  /** Records the steps and annotations of a `completejob`; a repeat adds no annotation. */
  report(job: CompletedJob, input: JobResultsInput): Promise<void>;
}

const ANNOTATIONS_CLAIM = 'completejob-annotations';

/** AnnotationLevel (§4.7) → the engine's level: failure is an error; unknown counts as a notice. */
const LEVELS: Readonly<Record<(typeof ANNOTATION_LEVELS)[number], AnnotationLevel>> = { unknown: 'notice', notice: 'notice', warning: 'warning', failure: 'error' };

export function annotationLevelOf(level: RunServiceAnnotation['level'] | string): AnnotationLevel {
  if (level === undefined) return 'notice';
  const name = typeof level === 'number' ? ANNOTATION_LEVELS[level] : ANNOTATION_LEVELS.find((candidate) => candidate === level.toLowerCase());
  return name === undefined ? 'notice' : LEVELS[name];
}

const positive = (value: number | undefined): number | undefined => (value !== undefined && Number.isSafeInteger(value) && value > 0 ? value : undefined);

/**
 * An annotation as the engine keeps it. The runner leaves zeros out (0 = unset) and, for an
 * issue without a file, puts the log's line number in `startLine`; the legacy path has no line
 * then, so without a `path` the location is dropped here too.
 */
export function annotationOf(annotation: RunServiceAnnotation): AnnotationInput {
  const file = annotation.path === undefined || annotation.path.trim() === '' ? undefined : annotation.path;
  const at: RunServiceAnnotation = file === undefined ? {} : annotation;
  const startLine = positive(at.startLine);
  const endLine = positive(at.endLine);
  const startColumn = positive(at.startColumn);
  const endColumn = positive(at.endColumn);
  return {
    level: annotationLevelOf(annotation.level),
    message: annotation.message ?? '',
    ...(annotation.title === undefined || annotation.title === '' ? {} : { title: annotation.title }),
    ...(file === undefined ? {} : { file }),
    ...(startLine === undefined ? {} : { startLine }),
    ...(endLine === undefined ? {} : { endLine }),
    ...(startColumn === undefined ? {} : { startColumn }),
    ...(endColumn === undefined ? {} : { endColumn }),
  };
}

export function createJobResults(deps: { readonly db: ResultsDb; readonly reporting: Reporting; readonly clock: Clock; readonly logger: Logger }): JobResults {
  const claims = createClaims(deps.db, deps.clock);
  return {
    async report(job, input) {
      const steps = (input.stepResults ?? []).flatMap((step) => {
        // A step result without a number has no place among the job's steps.
        if (step.number === undefined || step.number === null || step.number < 0) return [];
        return [
          stepReportFrom({
            number: step.number,
            name: step.name,
            state: parseRecordState(step.status, 'step status'),
            result: parseTaskResult(step.conclusion, 'step conclusion'),
            startTime: resultsTime(step.started_at),
            finishTime: resultsTime(step.completed_at),
          }),
        ];
      });
      if (steps.length > 0) await deps.reporting.reportSteps(job.jobId, job.runnerId, steps);

      const annotations = [...(input.stepResults ?? []).flatMap((step) => step.annotations ?? []), ...(input.annotations ?? [])].map(annotationOf);
      if (annotations.length === 0) return;
      const claim = await claims.claim(job.jobRecordId, ANNOTATIONS_CLAIM);
      if (claim !== 'claimed') {
        deps.logger.info({ jobId: job.jobId, claim }, 'completejob annotations were stored by an earlier call');
        return;
      }
      try {
        await deps.reporting.addAnnotations(job.jobId, job.runnerId, annotations);
      } catch (error) {
        await claims.release(job.jobRecordId, ANNOTATIONS_CLAIM);
        throw error;
      }
      await claims.stored(job.jobRecordId, ANNOTATIONS_CLAIM);
    },
  };
}

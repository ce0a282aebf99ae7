import { InputError } from '../../kernel/index.js';
import type { RunEvent } from '../events/run-events.js';
import { nextIds } from '../store/sequences.js';
import { heldJob } from './job-holder.js';
import type { ReportingContext } from './reporting-context.js';

export type AnnotationLevel = 'notice' | 'warning' | 'error';

/** A workflow command annotation (`::error file=a.ts,line=3::message`) as the runner reports it. */
export interface AnnotationInput {
  readonly level: AnnotationLevel;
  readonly message: string;
  readonly title?: string;
  readonly file?: string;
  readonly startLine?: number;
  readonly endLine?: number;
  readonly startColumn?: number;
  readonly endColumn?: number;
}

const LEVELS: readonly string[] = ['notice', 'warning', 'error'];

/**
 * Stores annotations of a job and writes one `annotation` run event for each, in one
 * transaction: a reader of the feed sees them exactly when they are stored. Returns how many
 * were added.
 */
export async function addAnnotations(ctx: ReportingContext, jobId: number, runnerId: string, annotations: readonly AnnotationInput[]): Promise<number> {
  for (const annotation of annotations) {
    if (!LEVELS.includes(annotation.level)) {
      throw new InputError(`annotation level '${annotation.level}' is not one of ${LEVELS.join(', ')}`, { code: 'annotation_invalid' });
    }
  }
  if (annotations.length === 0) return 0;
  return ctx.tx(async (uow) => {
    const job = await heldJob(uow, jobId, runnerId, ctx.rowLocks);
    const firstId = await nextIds(uow.tx, 'annotations', annotations.length);
    for (const [index, a] of annotations.entries()) {
      await uow.tx
        .insertInto('engine_annotations')
        .values({
          id: firstId + index,
          run_id: job.runId,
          job_id: jobId,
          level: a.level,
          message: a.message,
          title: a.title ?? null,
          file: a.file ?? null,
          start_line: a.startLine ?? null,
          end_line: a.endLine ?? null,
          start_column: a.startColumn ?? null,
          end_column: a.endColumn ?? null,
          created_at: uow.now,
        })
        .execute();
      await uow.event(annotationEvent(job.runId, jobId, a));
    }
    return annotations.length;
  });
}

/** The `annotation` event: the spec's fields, the location ones only when known. */
function annotationEvent(runId: number, jobId: number, a: AnnotationInput): RunEvent {
  return {
    type: 'annotation',
    run_id: runId,
    job_id: jobId,
    level: a.level,
    message: a.message,
    ...(a.title !== undefined ? { title: a.title } : {}),
    ...(a.file !== undefined ? { file: a.file } : {}),
    ...(a.startLine !== undefined ? { line: a.startLine } : {}),
    ...(a.endLine !== undefined ? { end_line: a.endLine } : {}),
    ...(a.startColumn !== undefined ? { col: a.startColumn } : {}),
    ...(a.endColumn !== undefined ? { end_col: a.endColumn } : {}),
  };
}

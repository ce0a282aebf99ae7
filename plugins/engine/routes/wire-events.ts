import { environmentHoldText, type JobRecord, type RunEvent, type RunRecord } from '../../../core/engine/index.js';

/**
 * An event as one NDJSON line, with exactly the spec's fields for its `type` (whatever else a
 * stored body might carry stays out of the wire format).
 */
export function toWireLine(event: RunEvent): string {
  return `${JSON.stringify(wireEvent(event))}\n`;
}

export function wireEvent(event: RunEvent): RunEvent {
  switch (event.type) {
    case 'run_accepted':
      return { type: event.type, run_id: event.run_id, queued_jobs: event.queued_jobs };
    case 'run_status':
      return { type: event.type, run_id: event.run_id, status: event.status, ...(event.reason ? { reason: event.reason } : {}) };
    case 'job_status':
      return { type: event.type, run_id: event.run_id, job_id: event.job_id, status: event.status, ...(event.reason ? { reason: event.reason } : {}) };
    case 'log':
      return { type: event.type, run_id: event.run_id, job_id: event.job_id, line: event.line };
    case 'annotation': {
      const { type, run_id, job_id, level, message, title, file, line, end_line, col, end_col } = event;
      const location = { title, file, line, end_line, col, end_col };
      const known = Object.fromEntries(Object.entries(location).filter(([, value]) => value !== undefined));
      return { type, run_id, job_id, level, message, ...known };
    }
    case 'job_completed':
      return { type: event.type, run_id: event.run_id, job_id: event.job_id, status: event.status, outputs: event.outputs };
    case 'check_run_created':
      return { type: event.type, run_id: event.run_id };
  }
}

/** The snapshot's first line: the run's current status. */
export function runStatusEvent(run: RunRecord): RunEvent {
  return { type: 'run_status', run_id: run.id, status: run.status, ...(run.reason ? { reason: run.reason } : {}) };
}

/** A snapshot line per job: its current status (a job its environment holds says why in words, as its event did). */
export function jobStatusEvent(job: JobRecord): RunEvent {
  const reason = environmentHoldText(job) ?? job.reason;
  return { type: 'job_status', run_id: job.runId, job_id: job.id, status: job.status, ...(reason ? { reason } : {}) };
}

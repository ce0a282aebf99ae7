/**
 * Run-service mode (`RunnerJobRequest`, §4.1, §4.6, §4.8): step states go to the results
 * service as `WorkflowStepsUpdate` (Task records only, `change_order` counting up from 1) every
 * 500 ms; each step's log is uploaded when it ends and the job record's own log at job end, each
 * followed by its metadata; step summaries likewise; then `completejob` with the step results and
 * annotations. The job log is uploaded on every job, as the official runner's is (its job log is
 * never empty: JobRunner completes the job context, whose paging logger ends the job record's
 * results log, before the queues drain and `completejob` goes out). It holds the job-level lines
 * only, possibly none: the official runner repeats every step line there, which a server that
 * keeps the job's own lines beside the steps' (svc) would show twice. Without a
 * results endpoint (`system.github.results_endpoint`) only `completejob` reaches the server, as
 * with the official runner. Failed uploads are tried again on the next flush.
 */
import type { StepResult } from '../../../core/protocol/index.js';
import type { HttpOptions } from '../http.js';
import { LogBook, type LogPage } from '../log-book.js';
import type { LogMasker } from '../log-masker.js';
import { maskRecord } from '../mask-record.js';
import { PendingRecords } from '../pending-records.js';
import { Pump } from '../pump.js';
import type { DiagnosticLog, JobCompletion, Reporter, ReporterTimings, TimelineRecord } from '../reporter-types.js';
import { completeJobBody, sendCompleteJob, stepResultOf } from './complete-job.js';
import { ResultsClient, resultsTimestamp } from './results-client.js';

export interface ResultsReporterConfig {
  readonly http: HttpOptions;
  /** The run service (SystemVssConnection URL): `completejob` is relative to it. */
  readonly url: string;
  /** `system.github.results_endpoint`; undefined or empty: no results uploads. */
  readonly resultsEndpoint: string | undefined;
  readonly planId: string;
  readonly jobId: string;
  readonly billingOwnerId?: string;
  readonly masker: LogMasker;
  readonly timings: ReporterTimings;
  readonly now: () => Date;
  readonly diagnostic: DiagnosticLog;
}

/** Results status and conclusion codes (§4.6). */
const STATUS: Readonly<Record<TimelineRecord['state'], number>> = { pending: 5, inProgress: 3, completed: 6 };
const CONCLUSION: Readonly<Record<string, number>> = { succeeded: 2, succeededWithIssues: 2, failed: 3, canceled: 4, skipped: 7 };

export function resultsStep(record: TimelineRecord): Record<string, unknown> {
  const conclusion = record.result === null ? 0 : (CONCLUSION[record.result] ?? 0);
  return {
    external_id: record.id,
    number: record.order ?? 0,
    name: record.name,
    status: STATUS[record.state],
    ...(record.startTime === null ? {} : { started_at: resultsTimestamp(record.startTime) }),
    ...(record.finishTime === null ? {} : { completed_at: resultsTimestamp(record.finishTime) }),
    ...(conclusion === 0 ? {} : { conclusion }),
  };
}

interface PendingLog {
  readonly stepId: string | undefined;
  content: string;
  lineCount: number;
}

export class ResultsReporter implements Reporter {
  readonly #config: ResultsReporterConfig;
  readonly #client: ResultsClient | undefined;
  readonly #records = new PendingRecords<TimelineRecord>((_older, newer) => newer);
  readonly #latest = new Map<string, TimelineRecord>();
  readonly #book: LogBook;
  readonly #logs = new Map<string, PendingLog>();
  readonly #uploads: PendingLog[] = [];
  readonly #summaries: Array<{ readonly stepId: string; readonly markdown: string }> = [];
  readonly #logLines = new Map<string, number>();
  readonly #pumps: Pump[];
  readonly #stepsPump: Pump;
  readonly #uploadsPump: Pump;
  /** Steps the results service has had: a step's log is uploaded only after its step. */
  readonly #sentSteps = new Set<string>();
  #changeOrder = 1;
  /** The job record's log has ended and is queued (or sent). */
  #jobLogQueued = false;

  constructor(config: ResultsReporterConfig) {
    this.#config = config;
    const endpoint = config.resultsEndpoint;
    this.#client = endpoint === undefined || endpoint === '' ? undefined : new ResultsClient(config.http, endpoint, { planId: config.planId, jobId: config.jobId });
    this.#book = new LogBook({ now: config.now, onPage: (page) => this.#collect(page) });
    const onError = (error: unknown) => config.diagnostic(`results: ${error instanceof Error ? error.message : String(error)}`);
    this.#stepsPump = new Pump(() => this.#flushSteps(), () => config.timings.recordsMs, onError);
    this.#uploadsPump = new Pump(() => this.#flushUploads(), () => config.timings.uploadsMs, onError);
    this.#pumps = [this.#stepsPump, this.#uploadsPump];
    if (this.#client !== undefined) for (const pump of this.#pumps) pump.start();
  }

  updateRecord(record: TimelineRecord): void {
    const masked = maskRecord(record, this.#config.masker);
    this.#latest.set(record.id, masked);
    if (masked.type === 'Task' && this.#client !== undefined) this.#records.add(record.id, masked);
  }

  appendLog(recordId: string, text: string): number {
    let number = this.#book.lineCount(recordId);
    for (const line of text.split('\n')) number = this.#book.append(recordId, this.#config.masker.mask(line));
    return number;
  }

  endLog(recordId: string): void {
    this.#book.end(recordId);
  }

  attachStepSummary(stepRecordId: string, markdown: string): void {
    if (this.#client !== undefined) this.#summaries.push({ stepId: stepRecordId, markdown: this.#config.masker.mask(markdown) });
  }

  async completeJob(completion: JobCompletion): Promise<void> {
    this.#book.endAll();
    if (this.#client !== undefined && !this.#jobLogQueued) {
      // No job-level line was written: the job log is still uploaded (empty), after the steps' logs.
      this.#jobLogQueued = true;
      this.#uploads.push({ stepId: undefined, content: '', lineCount: 0 });
    }
    for (const pump of this.#pumps) pump.stop();
    if (this.#client !== undefined) {
      for (const pump of this.#pumps) await pump.drain();
      await this.#stepsPump.drain();
      await this.#flushUploads();
    }
    const steps: StepResult[] = [...this.#latest.values()]
      .filter((record) => record.type === 'Task')
      .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
      .map((record) => stepResultOf(record, this.#logLines.get(record.id)));
    const { http, url, planId, jobId, billingOwnerId, timings, diagnostic } = this.#config;
    const target = { http, url, planId, jobId, attempts: timings.completionAttempts, retryMs: timings.completionRetryMs, diagnostic, ...(billingOwnerId === undefined ? {} : { billingOwnerId }) };
    await sendCompleteJob(target, completeJobBody(target, completion, steps));
  }

  async close(): Promise<void> {
    for (const pump of this.#pumps) pump.stop();
  }

  #collect(page: LogPage): void {
    if (this.#client === undefined) return;
    let log = this.#logs.get(page.recordId);
    if (log === undefined) {
      log = { stepId: page.recordId === this.#config.jobId ? undefined : page.recordId, content: '', lineCount: 0 };
      this.#logs.set(page.recordId, log);
    }
    log.content += page.content;
    log.lineCount += page.lineCount;
    if (page.last) {
      this.#logs.delete(page.recordId);
      this.#uploads.push(log);
      if (log.stepId === undefined) this.#jobLogQueued = true;
      // A finished step's log goes up now, while the next steps run, not at job end.
      else this.#uploadsPump.nudge();
    }
  }

  async #flushSteps(): Promise<void> {
    const client = this.#client;
    if (client === undefined) return;
    const taken = this.#records.take();
    if (taken.length === 0) return;
    try {
      await client.updateSteps(
        taken.map(([, record]) => resultsStep(record)),
        this.#changeOrder++,
      );
      for (const [id] of taken) this.#sentSteps.add(id);
    } catch (error) {
      this.#records.putBack(taken);
      throw error;
    }
  }

  async #flushUploads(): Promise<void> {
    const client = this.#client;
    if (client === undefined) return;
    while (this.#uploads.length > 0) {
      const log = this.#uploads[0];
      if (log === undefined) break;
      // An empty step log is not uploaded (a step that wrote nothing); the job log always is.
      if (log.content !== '' || log.stepId === undefined) {
        if (log.stepId !== undefined && !this.#sentSteps.has(log.stepId)) await this.#stepsPump.drain();
        if (log.stepId !== undefined && !this.#sentSteps.has(log.stepId)) return;
        const ok = await this.#attempt(`log upload for step ${log.stepId ?? 'job'}`, () => client.uploadLog(log.stepId, log.content, log.lineCount, this.#config.now));
        if (!ok) return;
        if (log.stepId !== undefined) this.#logLines.set(log.stepId, log.lineCount);
      }
      this.#uploads.shift();
    }
    while (this.#summaries.length > 0) {
      const summary = this.#summaries[0];
      if (summary === undefined) break;
      if (!(await this.#attempt('step summary upload', () => client.uploadStepSummary(summary.stepId, summary.markdown, this.#config.now)))) return;
      this.#summaries.shift();
    }
  }

  async #attempt(what: string, run: () => Promise<void>): Promise<boolean> {
    try {
      await run();
      return true;
    } catch (error) {
      this.#config.diagnostic(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }
}

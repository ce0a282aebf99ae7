/**
 * Legacy mode (`PipelineAgentJobRequest`, §4.1–§4.5, §4.8): the VSS routes of the plan.
 *
 * - Records: `PATCH …/timelines/{timelineId}/records` with the wrapped list, every 500 ms, at
 *   most 25 records a flush, updates of one record merged, failures retried on the next flush.
 * - Logs: each record's log in pages (log-book.ts); a closed page is `POST …/logs` (path
 *   `logs\<recordId>`), `POST …/logs/{id}` with the page's bytes, then a partial record update
 *   `{id, log: {id}}`; a record's last page goes at once, not at the next tick, and a running
 *   record's lines go up as a page once they are a second old (livePageAge). A step's lines are
 *   in the step's log only, not copied into the job record's log (the official runner copies
 *   them, which makes svc store each line twice).
 * - Live feed: `POST …/timelines/{timelineId}/records/{jobId}/feed` (feed-queue.ts).
 * - Step summaries: `PUT …/records/{jobId}/attachments/Checks.Step.Summary/{stepRecordId}`.
 * - Completion: with `plan.version` ≥ 8 a `JobCompleted` plan event (5 attempts, 5 s apart; a
 *   plan that is gone, another's, or terminated stops them); below 8 the listener finishes the job.
 */
import { Buffer } from 'node:buffer';
import type { JsonObject } from '../../../core/protocol/index.js';
import { HttpStatusError, answerJson, httpSend, type HttpOptions } from '../http.js';
import { LogBook, type LogPage } from '../log-book.js';
import type { LogMasker } from '../log-masker.js';
import { maskRecord } from '../mask-record.js';
import { PendingRecords } from '../pending-records.js';
import { Pump } from '../pump.js';
import type { DiagnosticLog, JobCompletion, Reporter, ReporterTimings, TimelineRecord } from '../reporter-types.js';
import { FeedQueue } from './feed-queue.js';
import { logLink, mergeWire, recordToWire, type WireRecord } from './record-wire.js';
import { VssLocations, type RouteValues } from './vss-locations.js';

export interface LegacyReporterConfig {
  readonly http: HttpOptions;
  /** The SystemVssConnection URL. */
  readonly url: string;
  readonly plan: { readonly scopeIdentifier: string; readonly hub: string; readonly planId: string; readonly version: number };
  readonly timelineId: string;
  readonly jobId: string;
  readonly requestId: number;
  readonly workerName: string;
  readonly agentPlatform: string;
  readonly masker: LogMasker;
  readonly timings: ReporterTimings;
  readonly now: () => Date;
  readonly diagnostic: DiagnosticLog;
}

const RECORDS_PER_FLUSH = 25;
/**
 * A running step's lines go up as pages while it runs (the server stores each page as it comes,
 * so `svc run` and the run's feed show them): a page at most a second old for the first
 * LIVE_FAST_PAGES pages of a log, then at most ten seconds, so a long chatty step makes a few
 * hundred pages an hour, not thousands. The official runner only pages at 8 MiB; the server
 * takes any number of pages.
 */
const LIVE_FAST_PAGES = 30;
const livePageAge = (pagesSoFar: number): number => (pagesSoFar < LIVE_FAST_PAGES ? 1000 : 10_000);
const STOPPING_EXCEPTIONS = ['TaskOrchestrationPlanNotFoundException', 'TaskOrchestrationPlanSecurityException', 'TaskOrchestrationPlanTerminatedException'];

export class LegacyReporter implements Reporter {
  readonly #config: LegacyReporterConfig;
  readonly #locations: VssLocations;
  readonly #records = new PendingRecords<WireRecord>(mergeWire);
  readonly #pages: LogPage[] = [];
  readonly #feed = new FeedQueue();
  readonly #attachments: Array<{ readonly name: string; readonly content: string }> = [];
  readonly #book: LogBook;
  readonly #pumps: Pump[];
  readonly #recordsPump: Pump;
  readonly #uploadsPump: Pump;
  readonly #feedPump: Pump;
  /** Records the server has had at least once: a log page is uploaded only after its record. */
  readonly #sent = new Set<string>();
  readonly #startedAt: number;

  constructor(config: LegacyReporterConfig) {
    this.#config = config;
    this.#locations = new VssLocations(config.http, config.url);
    this.#book = new LogBook({
      now: config.now,
      onPage: (page) => {
        this.#pages.push(page);
        // A finished record's log goes up now, while the next steps run, not at job end.
        if (page.last) this.#uploadsPump.nudge();
      },
    });
    this.#startedAt = Date.now();
    const onError = (error: unknown) => config.diagnostic(`reporting: ${messageOf(error)}`);
    const feedInterval = () => (Date.now() - this.#startedAt < 60_000 ? config.timings.feedFastMs : config.timings.feedMs);
    this.#recordsPump = new Pump(() => this.#flushRecords(false), () => config.timings.recordsMs, onError);
    this.#uploadsPump = new Pump(() => this.#flushUploads(), () => config.timings.uploadsMs, onError);
    this.#feedPump = new Pump(() => this.#flushFeed(false), feedInterval, onError);
    this.#pumps = [this.#recordsPump, this.#uploadsPump, this.#feedPump];
    for (const pump of this.#pumps) pump.start();
    // connectionData now, while the job sets up (the worker's first call, as the runner's): the
    // first report needs it.
    this.#locations.preload();
  }

  updateRecord(record: TimelineRecord): void {
    const wire = recordToWire(maskRecord(record, this.#config.masker), this.#config);
    this.#records.add(record.id, wire);
  }

  appendLog(recordId: string, text: string): number {
    let number = this.#book.lineCount(recordId);
    for (const line of text.split('\n')) {
      const masked = this.#config.masker.mask(line);
      number = this.#book.append(recordId, masked);
      this.#feed.add(recordId, masked, number);
    }
    return number;
  }

  endLog(recordId: string): void {
    this.#book.end(recordId);
  }

  attachStepSummary(stepRecordId: string, markdown: string): void {
    this.#attachments.push({ name: stepRecordId, content: this.#config.masker.mask(markdown) });
  }

  async completeJob(completion: JobCompletion): Promise<void> {
    this.#book.endAll();
    for (const pump of this.#pumps) pump.stop();
    // Channels of their own drain side by side: the records not sent yet (a log waits for its
    // record), the logs, the feed. The last timeline update, which links the logs, comes after.
    const records = this.#recordsPump.drain();
    const feed = (async () => {
      await this.#feedPump.drain();
      await this.#flushFeed(true);
    })();
    await this.#uploadsPump.drain();
    await records;
    await this.#flushAllRecords();
    await feed;
    if (this.#config.plan.version < 8) return;
    await this.#sendJobCompleted(completion);
  }

  async close(): Promise<void> {
    for (const pump of this.#pumps) pump.stop();
  }

  #route(extra: RouteValues = {}): RouteValues {
    const { plan, timelineId } = this.#config;
    return { scopeIdentifier: plan.scopeIdentifier, hubName: plan.hub, planId: plan.planId, timelineId, ...extra };
  }

  async #flushRecords(final: boolean): Promise<boolean> {
    const taken = this.#records.take(final ? undefined : RECORDS_PER_FLUSH);
    if (taken.length === 0) return true;
    try {
      const url = await this.#locations.url('records', this.#route());
      const value = taken.map(([, wire]) => wire);
      answerJson(await httpSend(this.#config.http, { method: 'PATCH', url, json: { count: value.length, value } }));
      for (const [id] of taken) this.#sent.add(id);
      return true;
    } catch (error) {
      this.#records.putBack(taken);
      this.#config.diagnostic(`timeline update failed, will retry: ${messageOf(error)}`);
      return false;
    }
  }

  async #flushAllRecords(): Promise<void> {
    for (let attempt = 1; this.#records.size > 0; attempt++) {
      if (await this.#flushRecordsSerially()) continue;
      if (attempt >= 3) {
        this.#config.diagnostic(`giving up on ${this.#records.size} timeline record update(s)`);
        return;
      }
      await delay(this.#config.timings.recordsMs);
    }
  }

  /** A final flush of every queued record, after any flush in progress. */
  async #flushRecordsSerially(): Promise<boolean> {
    let ok = true;
    await this.#recordsPump.drain();
    if (this.#records.size > 0) ok = await this.#flushRecords(true);
    return ok && this.#records.size === 0;
  }

  async #flushUploads(): Promise<void> {
    this.#book.closeAgedPages(livePageAge);
    while (this.#pages.length > 0) {
      const page = this.#pages[0];
      if (page === undefined) break;
      if (page.content !== '') {
        if (!this.#sent.has(page.recordId)) await this.#recordsPump.drain();
        if (!this.#sent.has(page.recordId)) return;
        try {
          await this.#uploadPage(page);
        } catch (error) {
          this.#config.diagnostic(`log upload for record ${page.recordId} failed, will retry: ${messageOf(error)}`);
          return;
        }
      }
      this.#pages.shift();
    }
    while (this.#attachments.length > 0) {
      const attachment = this.#attachments[0];
      if (attachment === undefined) break;
      try {
        const url = await this.#locations.url('attachments', this.#route({ recordId: this.#config.jobId, type: 'Checks.Step.Summary', name: attachment.name }));
        await httpSend(this.#config.http, { method: 'PUT', url, bytes: Buffer.from(attachment.content, 'utf8') });
      } catch (error) {
        this.#config.diagnostic(`step summary upload failed, will retry: ${messageOf(error)}`);
        return;
      }
      this.#attachments.shift();
    }
  }

  async #uploadPage(page: LogPage): Promise<void> {
    const create = await this.#locations.url('logs', this.#route());
    const log = answerJson(await httpSend(this.#config.http, { method: 'POST', url: create, json: { path: `logs\\${page.recordId}` } })) as JsonObject | undefined;
    const logId = log?.['id'];
    if (typeof logId !== 'number') throw new Error(`the server created a log without a numeric id: ${JSON.stringify(log)}`);
    const append = await this.#locations.url('logs', this.#route({ logId }));
    await httpSend(this.#config.http, { method: 'POST', url: append, bytes: Buffer.from(page.content, 'utf8') });
    this.#records.add(page.recordId, logLink(page.recordId, logId));
  }

  async #flushFeed(final: boolean): Promise<void> {
    const batches = this.#feed.take(final);
    if (batches.length === 0) return;
    let url: string;
    try {
      url = await this.#locations.url('feed', this.#route({ recordId: this.#config.jobId }));
    } catch {
      return;
    }
    for (const batch of batches) {
      try {
        await httpSend(this.#config.http, {
          method: 'POST',
          url,
          attempts: 1,
          json: { value: batch.lines, count: batch.lines.length, stepId: batch.stepId, startLine: batch.startLine },
        });
      } catch {
        // Best effort (the uploaded pages hold every line).
      }
    }
  }

  async #sendJobCompleted(completion: JobCompletion): Promise<void> {
    const outputs: Record<string, { value: string }> = {};
    for (const [name, value] of Object.entries(completion.outputs)) outputs[name] = { value };
    const event = {
      name: 'JobCompleted',
      jobId: this.#config.jobId,
      requestId: this.#config.requestId,
      result: completion.result,
      outputs,
      ...(completion.environment === undefined ? {} : { actionsEnvironment: { name: completion.environment.name, ...(completion.environment.url === undefined ? {} : { url: completion.environment.url }) } }),
    };
    const { completionAttempts, completionRetryMs } = this.#config.timings;
    let lastError: unknown;
    for (let attempt = 1; attempt <= completionAttempts; attempt++) {
      try {
        const url = await this.#locations.url('events', this.#route());
        await httpSend(this.#config.http, { method: 'POST', url, json: event });
        return;
      } catch (error) {
        lastError = error;
        if (error instanceof HttpStatusError && STOPPING_EXCEPTIONS.some((name) => error.body.includes(name))) break;
        this.#config.diagnostic(`JobCompleted attempt ${attempt} failed: ${messageOf(error)}`);
        if (attempt < completionAttempts) await delay(completionRetryMs);
      }
    }
    throw new Error(`the server was not told the job's result: ${messageOf(lastError)}`, { cause: lastError });
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

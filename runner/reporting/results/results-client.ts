/**
 * The results service (§4.6): Twirp calls relative to `system.github.results_endpoint` (JSON,
 * snake_case, the job token) and uploads to the signed blob URLs they hand out. Blob uploads
 * follow `blob_storage_type`: Azure gets the `x-ms-*` headers of the REST API, any other type
 * the same plain PUTs without them (what svc serves). A log that fits one 2 MiB block is one
 * blob; a longer one is an append blob: created empty, one `&comp=appendblock` PUT per block,
 * the last with `&seal=true`.
 */
import { Buffer } from 'node:buffer';
import { answerJson, httpSend, type HttpOptions } from '../http.js';

export const RESULTS_BLOCK_BYTES = 2 * 1024 * 1024;
const RECEIVER = 'twirp/results.services.receiver.Receiver/';
const STEP_UPDATES = 'twirp/github.actions.results.api.v1.WorkflowStepUpdateService/WorkflowStepsUpdate';
const AZURE = 'BLOB_STORAGE_TYPE_AZURE';

export interface ResultsIds {
  readonly planId: string;
  readonly jobId: string;
}

/** `yyyy-MM-ddTHH:mm:ss.fffZ`. */
export function resultsTimestamp(date: Date): string {
  return date.toISOString();
}

export class ResultsClient {
  readonly #http: HttpOptions;
  readonly #base: string;
  readonly #ids: ResultsIds;

  constructor(http: HttpOptions, endpoint: string, ids: ResultsIds) {
    this.#http = http;
    this.#base = endpoint.endsWith('/') ? endpoint : `${endpoint}/`;
    this.#ids = ids;
  }

  /** A Twirp call; answers the JSON body. `expectOk` checks the `ok: true` the runner insists on. */
  async call(route: string, body: object, expectOk: boolean): Promise<Record<string, unknown>> {
    const url = new URL(route, this.#base).href;
    const answer = answerJson(await httpSend(this.#http, { method: 'POST', url, json: body }));
    const json = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
    if (expectOk && json['ok'] !== true) throw new Error(`${route} did not answer ok: ${JSON.stringify(answer)}`);
    return json;
  }

  async updateSteps(steps: readonly object[], changeOrder: number): Promise<void> {
    await this.call(
      STEP_UPDATES,
      { steps, change_order: changeOrder, workflow_job_run_backend_id: this.#ids.jobId, workflow_run_backend_id: this.#ids.planId },
      true,
    );
  }

  /** Uploads a whole log (a step's, or the job's when `stepId` is undefined) and records its metadata. */
  async uploadLog(stepId: string | undefined, content: string, lineCount: number, now: () => Date): Promise<void> {
    const blocks = splitBlocks(content);
    for (const [index, block] of blocks.entries()) {
      const signed = await this.call(`${RECEIVER}${stepId === undefined ? 'GetJobLogsSignedBlobURL' : 'GetStepLogsSignedBlobURL'}`, this.#scope(stepId), false);
      const url = stringField(signed, 'logs_url');
      const type = stringField(signed, 'blob_storage_type', '');
      await this.#putBlock(url, type, block, index === 0, index === blocks.length - 1);
    }
    const metadata = { ...this.#scope(stepId), uploaded_at: resultsTimestamp(now()), line_count: lineCount };
    await this.call(`${RECEIVER}${stepId === undefined ? 'CreateJobLogsMetadata' : 'CreateStepLogsMetadata'}`, metadata, true);
  }

  async uploadStepSummary(stepId: string, markdown: string, now: () => Date): Promise<void> {
    const signed = await this.call(`${RECEIVER}GetStepSummarySignedBlobURL`, this.#scope(stepId), false);
    const bytes = Buffer.from(markdown, 'utf8');
    const limit = Number(signed['soft_size_limit'] ?? 0);
    if (limit > 0 && bytes.length > limit) throw new Error(`the step summary (${bytes.length} bytes) is larger than the upload URL allows (${limit})`);
    const type = stringField(signed, 'blob_storage_type', '');
    await httpSend(this.#http, {
      method: 'PUT',
      url: stringField(signed, 'summary_url'),
      auth: false,
      bytes,
      contentType: 'text/plain',
      ...(type === AZURE ? { headers: { 'x-ms-blob-type': 'BlockBlob' } } : {}),
    });
    await this.call(`${RECEIVER}CreateStepSummaryMetadata`, { ...this.#scope(stepId), size: bytes.length, uploaded_at: resultsTimestamp(now()) }, true);
  }

  #scope(stepId: string | undefined): Record<string, string> {
    return {
      workflow_run_backend_id: this.#ids.planId,
      workflow_job_run_backend_id: this.#ids.jobId,
      ...(stepId === undefined ? {} : { step_backend_id: stepId }),
    };
  }

  async #putBlock(url: string, type: string, block: Buffer, first: boolean, last: boolean): Promise<void> {
    const azure = type === AZURE;
    if (first && last) {
      await httpSend(this.#http, { method: 'PUT', url, auth: false, bytes: block, contentType: 'text/plain', ...(azure ? { headers: { 'x-ms-blob-type': 'BlockBlob' } } : {}) });
      return;
    }
    if (first) {
      await httpSend(this.#http, {
        method: 'PUT',
        url,
        auth: false,
        bytes: Buffer.alloc(0),
        contentType: 'text/plain',
        ...(azure ? { headers: { 'x-ms-blob-type': 'AppendBlob' } } : {}),
      });
    }
    await httpSend(this.#http, {
      method: 'PUT',
      url: `${url}${last ? '&comp=appendblock&seal=true' : '&comp=appendblock'}`,
      auth: false,
      bytes: block,
      contentType: 'text/plain',
      ...(azure ? { headers: { 'x-ms-blob-sealed': last ? 'True' : 'False' } } : {}),
    });
  }
}

/** Blocks of at most 2 MiB cut at line ends (a longer line is a block of its own). */
export function splitBlocks(content: string): Buffer[] {
  const blocks: Buffer[] = [];
  let current: Buffer[] = [];
  let size = 0;
  for (const line of content.split(/(?<=\n)/)) {
    if (line === '') continue;
    const bytes = Buffer.from(line, 'utf8');
    if (size > 0 && size + bytes.length > RESULTS_BLOCK_BYTES) {
      blocks.push(Buffer.concat(current));
      current = [];
      size = 0;
    }
    current.push(bytes);
    size += bytes.length;
  }
  if (size > 0 || blocks.length === 0) blocks.push(Buffer.concat(current));
  return blocks;
}

function stringField(json: Record<string, unknown>, name: string, fallback?: string): string {
  const value = json[name];
  if (typeof value === 'string' && value !== '') return value;
  if (fallback !== undefined) return fallback;
  throw new Error(`the results service answered without '${name}'`);
}

/**
 * A scripted Worker: the official runner's Worker calls during a job in the legacy flow
 * (RUNNER-PROTOCOL.md §4.1–§4.5, §4.8; actions/runner src/Runner.Common/JobServer.cs,
 * JobServerQueue.cs, src/Sdk/DTGenerated/Generated/TaskHttpClientBase.cs), made from a job
 * message the way the Worker makes them: the SystemVssConnection's URL and token, the resource
 * locations from connectionData, route values from the message's plan and timeline.
 */
import assert from 'node:assert/strict';
import type { JsonObject, JsonValue } from '../../core/protocol/index.js';
import { expandRoute, locationsOf, send, vssUrl, type HttpResult, type ResourceLocation } from './vss-client.js';

export const WORKER_LOCATION = {
  timelines: '83597576-cc2c-453c-bea6-2882ae6a1653',
  records: '8893bc5b-35b2-4be7-83cb-99e683551db4',
  feed: '858983e4-19bd-4c5e-864c-507b59b58b12',
  logs: '46f5667d-263a-4684-91b1-dff7fdcf64e2',
  attachments: '7898f959-9cdf-4096-b29e-7f293031629e',
  events: '557624af-b29e-4c20-8ab0-0399d2204f3f',
} as const;

/** What the Worker reads from the job message. */
export interface WorkerJobInfo {
  readonly url: string;
  readonly token: string;
  readonly scopeIdentifier: string;
  readonly hubName: string;
  readonly planId: string;
  readonly timelineId: string;
  readonly jobId: string;
  readonly requestId: number;
  readonly jobName: string;
  readonly steps: readonly { readonly id: string; readonly name: string }[];
}

const object = (value: JsonValue | undefined): JsonObject => {
  assert.ok(typeof value === 'object' && value !== null && !Array.isArray(value), 'an object');
  return value as JsonObject;
};

export function jobInfo(message: JsonObject): WorkerJobInfo {
  const endpoints = object(message['resources'])['endpoints'] as JsonValue[];
  const connection = endpoints.map(object).find((endpoint) => String(endpoint['name']).toLowerCase() === 'systemvssconnection');
  assert.ok(connection, 'the message has a SystemVssConnection');
  const plan = object(message['plan']);
  return {
    url: String(connection['url']),
    token: String(object(object(connection['authorization'])['parameters'])['AccessToken']),
    scopeIdentifier: String(plan['scopeIdentifier']),
    hubName: String(plan['planType']),
    planId: String(plan['planId']),
    timelineId: String(object(message['timeline'])['id']),
    jobId: String(message['jobId']),
    requestId: Number(message['requestId']),
    jobName: String(message['jobDisplayName']),
    steps: (message['steps'] as JsonValue[]).map(object).map((step) => ({ id: String(step['id']), name: String(step['displayName'] ?? step['name'] ?? '') })),
  };
}

/** A timeline record with every member the runner's serializer writes (§4.2). */
export function timelineRecord(fields: { readonly id: string; readonly type?: 'Job' | 'Task'; readonly parentId?: string | null } & Readonly<Record<string, JsonValue>>): JsonObject {
  return {
    parentId: null,
    type: 'Task',
    name: null,
    startTime: null,
    finishTime: null,
    currentOperation: null,
    percentComplete: null,
    state: null,
    result: null,
    resultCode: null,
    changeId: 0,
    lastModified: '0001-01-01T00:00:00',
    workerName: 'build-01',
    log: null,
    details: null,
    errorCount: 0,
    warningCount: 0,
    noticeCount: 0,
    location: null,
    attempt: 1,
    identifier: null,
    ...fields,
  };
}

/** A page file's bytes as the Worker writes it: UTF-8 BOM, then `<UTC round-trip time> <text>` lines. */
export function logPage(lines: readonly string[], at = Date.UTC(2030, 0, 1, 0, 0, 1)): Buffer {
  const stamp = `${new Date(at).toISOString().slice(0, -1)}0000Z`;
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.map((line) => `${stamp} ${line}\n`).join(''), 'utf8')]);
}

export class ScriptedWorker {
  readonly log: string[] = [];
  #locations: Map<string, ResourceLocation> | undefined;

  constructor(
    readonly job: WorkerJobInfo,
    /** Another job's token, to act as a Worker holding the wrong one. */
    readonly token = job.token,
  ) {}

  /** The same Worker (connection and all) sending another token. */
  withToken(token: string): ScriptedWorker {
    const other = new ScriptedWorker(this.job, token);
    other.#locations = this.#locations;
    return other;
  }

  get auth(): Record<string, string> {
    return { authorization: `Bearer ${this.token}` };
  }

  /** `GET _apis/connectionData` on the SystemVssConnection URL (the job connection's first call). */
  async connect(): Promise<void> {
    const result = await send(this.log, 'GET', vssUrl(this.job.url, '_apis/connectionData', { connectOptions: '1', lastChangeId: '-1', lastChangeId64: '-1' }), { headers: this.auth });
    assert.equal(result.status, 200);
    this.#locations = locationsOf(result.body);
  }

  url(location: string, values: Readonly<Record<string, string | number>>, query: Readonly<Record<string, string>> = {}): string {
    const found = this.#locations?.get(location);
    assert.ok(found, `connectionData advertises location ${location}`);
    const route = { scopeIdentifier: this.job.scopeIdentifier, hubName: this.job.hubName, planId: this.job.planId, ...values };
    return vssUrl(this.job.url, expandRoute(found.routeTemplate, route, found.area, found.resource), query);
  }

  updateRecords(records: readonly JsonObject[], timelineId = this.job.timelineId): Promise<HttpResult> {
    return send(this.log, 'PATCH', this.url(WORKER_LOCATION.records, { timelineId }), { headers: this.auth, json: { count: records.length, value: records } });
  }

  getTimeline(): Promise<HttpResult> {
    return send(this.log, 'GET', this.url(WORKER_LOCATION.timelines, { timelineId: this.job.timelineId }, { includeRecords: 'True' }), { headers: this.auth });
  }

  createTimeline(id: string): Promise<HttpResult> {
    return send(this.log, 'POST', this.url(WORKER_LOCATION.timelines, {}), { headers: this.auth, json: { id, changeId: 0, location: null } });
  }

  createLog(recordId: string): Promise<HttpResult> {
    return send(this.log, 'POST', this.url(WORKER_LOCATION.logs, {}), { headers: this.auth, json: { path: `logs\\${recordId}`, createdOn: '0001-01-01T00:00:00', lastChangedOn: '0001-01-01T00:00:00' } });
  }

  appendLog(logId: number, page: Buffer): Promise<HttpResult> {
    return this.sendBytes('POST', this.url(WORKER_LOCATION.logs, { logId }), page);
  }

  feed(stepId: string, lines: readonly string[], startLine: number): Promise<HttpResult> {
    const url = this.url(WORKER_LOCATION.feed, { timelineId: this.job.timelineId, recordId: this.job.jobId });
    return send(this.log, 'POST', url, { headers: this.auth, json: { count: lines.length, value: lines, stepId, startLine } });
  }

  attach(recordId: string, type: string, name: string, body: Buffer): Promise<HttpResult> {
    return this.sendBytes('PUT', this.url(WORKER_LOCATION.attachments, { timelineId: this.job.timelineId, recordId, type, name }), body);
  }

  jobCompleted(result: string, outputs: Readonly<Record<string, string>> = {}, jobId = this.job.jobId): Promise<HttpResult> {
    const event = {
      name: 'JobCompleted',
      jobId,
      requestId: this.job.requestId,
      result,
      outputs: Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, { value }])),
      actionsStepsTelemetry: [],
      jobTelemetry: [],
    };
    return send(this.log, 'POST', this.url(WORKER_LOCATION.events, {}), { headers: this.auth, json: event });
  }

  /** Creates a log for a record, uploads one page, and links it (§4.3); returns the log id. */
  async uploadLog(recordId: string, lines: readonly string[]): Promise<{ readonly logId: number; readonly page: Buffer }> {
    const created = await this.createLog(recordId);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const logId = Number((created.body as JsonObject)['id']);
    const page = logPage(lines);
    const appended = await this.appendLog(logId, page);
    assert.equal(appended.status, 200, JSON.stringify(appended.body));
    const linked = await this.updateRecords([{ id: recordId, log: { id: logId, location: null } } as JsonObject]);
    assert.equal(linked.status, 200, JSON.stringify(linked.body));
    return { logId, page };
  }

  async sendBytes(method: string, url: string, body: Buffer): Promise<HttpResult> {
    const response = await fetch(url, {
      method,
      headers: { ...this.auth, 'content-type': 'application/octet-stream', accept: 'application/json;api-version=5.1-preview.1', 'user-agent': 'GitHubActionsRunner-linux-x64/2.337.0 (scripted)' },
      body,
    });
    const text = await response.text();
    this.log.push(`${method} ${new URL(url).pathname} ${response.status}`);
    if (text === '') return { status: response.status, headers: response.headers, body: undefined };
    assert.match(response.headers.get('content-type') ?? '', /^application\/json\b/i);
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as unknown };
  }
}


/**
 * Test support for the worker's unit tests (not used by the worker itself): job messages built
 * the way the server builds them (JSON, then decoded like a real one), and a reporter that keeps
 * what it is told.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { JsonObject, JsonValue, TaskResultName } from '../../core/protocol/index.js';
import type { JobCompletion, LogMasker, Reporter, TimelineRecord } from '../reporting/index.js';
import { JobCancellation } from './cancellation.js';
import { decodeJobMessage, type JobMessage } from './job-message/index.js';
import { runJob, type JobRunOptions } from './job-runner.js';

/**
 * A value as the server sends it: `${{ x }}` alone is the expression `x`; text mixing literals and
 * expressions is a `format(...)` expression (as the parser makes it); anything else a literal.
 */
function token(value: string | number | boolean): JsonValue {
  if (typeof value !== 'string') return value;
  const whole = /^\$\{\{([\s\S]*?)\}\}$/.exec(value);
  if (whole && !(whole[1] ?? '').includes('${{')) return { type: 3, expr: (whole[1] ?? '').trim() };
  if (!value.includes('${{')) return { type: 0, lit: value };
  const args: string[] = [];
  const text = value
    .split(/(\$\{\{[\s\S]*?\}\})/)
    .map((part) => {
      const expr = /^\$\{\{([\s\S]*?)\}\}$/.exec(part);
      if (expr) {
        args.push((expr[1] ?? '').trim());
        return `{${args.length - 1}}`;
      }
      return part.replaceAll('{', '{{').replaceAll('}', '}}');
    })
    .join('');
  return { type: 3, expr: `format('${text.replaceAll("'", "''")}', ${args.join(', ')})` };
}

function mapping(values: Readonly<Record<string, string | number | boolean>>): JsonValue {
  return { type: 2, map: Object.entries(values).map(([key, value]) => ({ Key: { type: 0, lit: key }, Value: token(value) })) };
}

export interface TestStep {
  readonly id?: string;
  readonly name?: string;
  readonly run?: string;
  readonly uses?: { readonly name: string; readonly ref: string; readonly repositoryType?: string } | { readonly image: string };
  readonly if?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly with?: Readonly<Record<string, string>>;
  readonly continueOnError?: boolean | string;
  readonly timeoutMinutes?: number | string;
  readonly shell?: string;
  readonly workingDirectory?: string;
}

export interface TestMessageOptions {
  readonly steps: readonly TestStep[];
  readonly env?: Readonly<Record<string, string>>;
  readonly defaultsRun?: Readonly<Record<string, string>>;
  readonly outputs?: Readonly<Record<string, string>>;
  readonly variables?: Readonly<Record<string, { readonly value: string; readonly isSecret?: boolean }>>;
  readonly contexts?: Readonly<Record<string, JsonValue>>;
  readonly messageType?: string;
}

const PLAN = '8f6f3d2e-1a3b-4c5d-8e9f-0a1b2c3d4e5f';
export const TEST_JOB_ID = '2c9d6a41-7b1e-5f3a-9c2d-4e5f6a7b8c9d';

export function testMessageJson(options: TestMessageOptions): JsonObject {
  const steps = options.steps.map((step, i): JsonObject => {
    const contextName = step.id ?? (i === 0 ? '__run' : `__run_${i + 1}`);
    const reference: JsonObject =
      step.uses === undefined
        ? { type: 'script' }
        : 'image' in step.uses
          ? { type: 'containerRegistry', image: step.uses.image }
          : { type: 'repository', name: step.uses.name, ref: step.uses.ref, repositoryType: step.uses.repositoryType ?? 'GitHub' };
    const inputs: Record<string, string> = step.run === undefined ? { ...step.with } : { script: step.run };
    if (step.workingDirectory !== undefined) inputs['workingDirectory'] = step.workingDirectory;
    if (step.shell !== undefined) inputs['shell'] = step.shell;
    const condition = step.if === undefined ? 'success()' : /success\(|failure\(|always\(|cancelled\(/.test(step.if) ? step.if : `success() && (${step.if})`;
    return {
      type: 'action',
      id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
      name: contextName,
      contextName,
      condition,
      reference,
      ...(step.name === undefined ? {} : { displayNameToken: token(step.name) }),
      continueOnError: step.continueOnError === undefined ? null : token(step.continueOnError),
      timeoutInMinutes: step.timeoutMinutes === undefined ? null : token(step.timeoutMinutes),
      ...(Object.keys(inputs).length === 0 ? {} : { inputs: mapping(inputs) }),
      ...(step.env === undefined ? {} : { environment: mapping(step.env) }),
    };
  });
  const variables: Record<string, JsonValue> = {
    'system.github.token': { value: 'ghs_testtoken0123456789', isSecret: true },
    'system.github.job': { value: 'build' },
  };
  for (const [name, v] of Object.entries(options.variables ?? {})) variables[name] = { value: v.value, ...(v.isSecret ? { isSecret: true } : {}) };
  const github = {
    t: 2,
    d: [
      { k: 'repository', v: 'acme/widgets' },
      { k: 'sha', v: 'c'.repeat(40) },
      { k: 'ref', v: 'refs/heads/main' },
      { k: 'event_name', v: 'push' },
      { k: 'server_url', v: 'https://github.example.test' },
      { k: 'run_id', v: '42' },
      { k: 'event', v: { t: 2, d: [{ k: 'ref', v: 'refs/heads/main' }] } },
    ],
  };
  return {
    messageType: options.messageType ?? 'PipelineAgentJobRequest',
    plan: { scopeIdentifier: '00000000-0000-0000-0000-000000000000', planType: 'actions', planId: PLAN, version: 12 },
    timeline: { id: PLAN, changeId: 0, location: null },
    jobId: TEST_JOB_ID,
    jobDisplayName: 'build',
    jobName: '__default',
    requestId: 7,
    resources: {
      endpoints: [
        {
          name: 'SystemVssConnection',
          url: 'http://127.0.0.1:9/',
          authorization: { scheme: 'OAuth', parameters: { AccessToken: 'job.token.value' } },
          data: { ResultsServiceUrl: 'http://127.0.0.1:9/', CacheServerUrl: 'http://127.0.0.1:9/cache/' },
        },
      ],
    },
    variables,
    mask: [],
    steps,
    contextData: { github, ...options.contexts },
    environmentVariables: options.env === undefined ? [] : [mapping(options.env)],
    defaults: options.defaultsRun === undefined ? [] : [{ type: 2, map: [{ Key: { type: 0, lit: 'run' }, Value: mapping(options.defaultsRun) }] }],
    jobOutputs: options.outputs === undefined ? null : mapping(options.outputs),
  };
}

export function testMessage(options: TestMessageOptions): JobMessage {
  return decodeJobMessage(testMessageJson(options));
}

/** A reporter that keeps the latest state of each record, each record's lines, summaries and the completion. */
export class RecordingReporter implements Reporter {
  readonly records = new Map<string, TimelineRecord>();
  readonly lines = new Map<string, string[]>();
  readonly summaries = new Map<string, string>();
  completion: JobCompletion | undefined;
  readonly #masker: LogMasker;

  constructor(masker: LogMasker) {
    this.#masker = masker;
  }

  updateRecord(record: TimelineRecord): void {
    this.records.set(record.id, record);
  }

  appendLog(recordId: string, text: string): number {
    const lines = this.lines.get(recordId) ?? [];
    for (const line of text.split('\n')) lines.push(this.#masker.mask(line));
    this.lines.set(recordId, lines);
    return lines.length;
  }

  endLog(): void {}

  attachStepSummary(stepRecordId: string, markdown: string): void {
    this.summaries.set(stepRecordId, this.#masker.mask(markdown));
  }

  async completeJob(completion: JobCompletion): Promise<void> {
    this.completion = completion;
  }

  async close(): Promise<void> {}

  /** Task records in order. */
  steps(): TimelineRecord[] {
    return [...this.records.values()].filter((r) => r.type === 'Task').sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  }

  /** The lines of the step record with this order. */
  linesOf(order: number): string[] {
    const record = this.steps().find((r) => r.order === order);
    return record === undefined ? [] : (this.lines.get(record.id) ?? []);
  }
}

export interface TestRun {
  readonly result: TaskResultName;
  readonly reporter: RecordingReporter;
  readonly root: string;
}

/** Runs a job in-process under a fresh runner root (removed after the test). */
export async function runTestJob(
  t: TestContext,
  message: JobMessage,
  options: Partial<Omit<JobRunOptions, 'reporter'>> & { readonly onStart?: (cancellation: JobCancellation) => void } = {},
): Promise<TestRun> {
  const root = await mkdtemp(join(tmpdir(), 'svc-worker-unit-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  let reporter: RecordingReporter | undefined;
  const cancellation = options.cancellation ?? new JobCancellation();
  options.onStart?.(cancellation);
  const result = await runJob(message, {
    runnerRoot: root,
    runnerName: 'unit-01',
    runnerVersion: '2.337.0',
    ...options,
    cancellation,
    reporter: (masker) => (reporter = new RecordingReporter(masker)),
  });
  if (reporter === undefined) throw new Error('the job made no reporter');
  return { result, reporter, root };
}

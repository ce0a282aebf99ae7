import type { FastifySchemaValidationError } from 'fastify';
import { InputError } from '../../../core/kernel/index.js';

/** Ids are positive whole numbers the store can hold (bigint, and exact in JavaScript). */
const id = (what: string) => ({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: `the ${what} id` }) as const;

export const RunParams = {
  type: 'object',
  required: ['run_id'],
  properties: { run_id: id('run') },
} as const;

export const JobParams = {
  type: 'object',
  required: ['run_id', 'job_id'],
  properties: { run_id: id('run'), job_id: id('job') },
} as const;

export const LogsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    job: { type: 'string', minLength: 1, description: 'a job id, name, or job key (every matrix instance)' },
    step: { type: 'integer', minimum: 0, maximum: 1_000_000, description: 'a step number' },
  },
} as const;

const nullable = (type: string) => ({ type: [type, 'null'] }) as const;

const StepView = {
  type: 'object',
  required: ['number', 'name', 'status', 'conclusion', 'started_at', 'completed_at'],
  properties: {
    number: { type: 'integer' },
    name: { type: 'string' },
    status: { type: 'string' },
    conclusion: nullable('string'),
    started_at: nullable('string'),
    completed_at: nullable('string'),
  },
} as const;

const EnvironmentView = {
  type: ['object', 'null'],
  required: ['name', 'url', 'wait_until', 'admin_override'],
  properties: {
    name: { type: 'string' },
    url: nullable('string'),
    wait_until: nullable('string'),
    admin_override: {
      type: ['object', 'null'],
      required: ['by', 'at'],
      properties: { by: { type: 'string' }, at: { type: 'string' } },
    },
  },
} as const;

export const JobViewSchema = {
  type: 'object',
  required: ['id', 'run_id', 'name', 'job_key', 'status', 'conclusion', 'reason', 'attempt', 'runner_id', 'runner_name', 'cancel_requested', 'created_at', 'queued_at', 'started_at', 'completed_at', 'outputs', 'environment', 'steps'],
  properties: {
    id: { type: 'integer' },
    run_id: { type: 'integer' },
    name: { type: 'string' },
    job_key: { type: 'string' },
    status: { type: 'string' },
    conclusion: nullable('string'),
    reason: nullable('string'),
    attempt: { type: 'integer' },
    runner_id: nullable('string'),
    runner_name: nullable('string'),
    cancel_requested: { type: 'boolean' },
    created_at: { type: 'string' },
    queued_at: nullable('string'),
    started_at: nullable('string'),
    completed_at: nullable('string'),
    outputs: { type: 'object', additionalProperties: { type: 'string' } },
    environment: EnvironmentView,
    steps: { type: 'array', items: StepView },
  },
} as const;

export const RunViewSchema = {
  type: 'object',
  required: ['id', 'run_number', 'run_attempt', 'workflow', 'display_title', 'repository', 'event', 'ref', 'sha', 'actor', 'trigger', 'status', 'conclusion', 'reason', 'cancel_requested', 'created_at', 'updated_at', 'started_at', 'completed_at', 'jobs'],
  properties: {
    id: { type: 'integer' },
    run_number: { type: 'integer' },
    run_attempt: { type: 'integer' },
    workflow: {
      type: 'object',
      required: ['id', 'name', 'path'],
      properties: { id: { type: 'string' }, name: { type: 'string' }, path: { type: 'string' } },
    },
    display_title: { type: 'string' },
    repository: { type: 'string' },
    event: { type: 'string' },
    ref: { type: 'string' },
    sha: { type: 'string' },
    actor: { type: 'string' },
    trigger: { type: 'string' },
    status: { type: 'string' },
    conclusion: nullable('string'),
    reason: nullable('string'),
    cancel_requested: { type: 'boolean' },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    started_at: nullable('string'),
    completed_at: nullable('string'),
    jobs: { type: 'array', items: JobViewSchema },
  },
} as const;

const FIELD_HINTS: Readonly<Record<string, string>> = {
  run_id: 'the run id must be a positive whole number, e.g. /api/v1/runs/42',
  job_id: 'the job id must be a positive whole number (see `jobs[].id` in GET /api/v1/runs/{run_id})',
  step: 'step must be a step number, 0 or more',
  job: 'job must name a job (its id, name or job key)',
};

/** Bad ids and query values answer 400 with a sentence a user can act on, not a schema path. */
export function schemaErrorFormatter(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const error = errors[0];
  const field = error?.instancePath.replace(/^\//, '') || String(error?.params['additionalProperty'] ?? error?.params['missingProperty'] ?? '');
  if (error?.keyword === 'additionalProperties') {
    return new InputError(`unknown ${dataVar} parameter '${field}'`, { code: 'invalid_request' });
  }
  const hint = FIELD_HINTS[field];
  return new InputError(hint ?? `${dataVar} ${field} ${error?.message ?? 'is not valid'}`.trim(), { code: 'invalid_request' });
}

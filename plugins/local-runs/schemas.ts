import type { FastifySchemaValidationError } from 'fastify';
import { InputError } from '../../core/kernel/index.js';

export const SnapshotQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['repository'],
  properties: {
    repository: { type: 'string', description: 'owner/repo the snapshot belongs to' },
    parent: { type: 'string', description: 'the commit the working tree was taken from (HEAD), used as the parent when the server has it' },
  },
} as const;

export const SnapshotViewSchema = {
  type: 'object',
  required: ['repository', 'sha', 'tree', 'files', 'bytes'],
  properties: {
    repository: { type: 'string' },
    sha: { type: 'string' },
    tree: { type: 'string' },
    files: { type: 'integer' },
    bytes: { type: 'integer' },
  },
} as const;

export const SubmittedViewSchema = {
  type: 'object',
  required: ['runs', 'not_triggered', 'invalid'],
  properties: {
    runs: {
      type: 'array',
      items: {
        type: 'object',
        required: ['run_id', 'workflow', 'status', 'url', 'warnings'],
        properties: {
          run_id: { type: 'integer' },
          workflow: { type: 'string' },
          status: { type: 'string' },
          url: { type: 'string' },
          warnings: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    not_triggered: {
      type: 'array',
      items: { type: 'object', required: ['workflow', 'reason'], properties: { workflow: { type: 'string' }, reason: { type: 'string' } } },
    },
    invalid: {
      type: 'array',
      items: {
        type: 'object',
        required: ['workflow', 'errors', 'run_id'],
        properties: { workflow: { type: 'string' }, errors: { type: 'array', items: { type: 'string' } }, run_id: { type: ['integer', 'null'] } },
      },
    },
  },
} as const;

/** Query problems answer 400 with what to send instead, not a schema path. */
export function schemaErrorFormatter(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const error = errors[0];
  if (error?.keyword === 'required' && error.params['missingProperty'] === 'repository') {
    return new InputError('the repository is missing: POST /api/v1/snapshots?repository=owner/repo', { code: 'invalid_request' });
  }
  if (error?.keyword === 'additionalProperties') {
    return new InputError(`unknown ${dataVar} parameter '${String(error.params['additionalProperty'])}' (allowed: repository, parent)`, { code: 'invalid_request' });
  }
  const field = error?.instancePath.replace(/^\//, '') ?? '';
  return new InputError(`${dataVar} ${field} ${error?.message ?? 'is not valid'}`.replace(/\s+/g, ' ').trim(), { code: 'invalid_request' });
}

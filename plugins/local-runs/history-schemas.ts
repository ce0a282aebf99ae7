import type { FastifySchemaValidationError } from 'fastify';
import { InputError } from '../../core/kernel/index.js';

const OBJECT_ID = { type: 'string', pattern: '^(?:[0-9a-f]{40}|[0-9a-f]{64})$' } as const;

/** At most this many tags travel with a commit (a large project has a few thousand). */
export const MAX_TAGS = 100_000;
/** Bodies that carry a tag list: the negotiation, and the pack's header line. */
export const TAGS_BODY_LIMIT = 16 * 1024 * 1024;

const TAGS = {
  type: 'array',
  maxItems: MAX_TAGS,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'object'],
    properties: { name: { type: 'string', minLength: 1, maxLength: 1024 }, object: OBJECT_ID },
  },
  description: 'refs/tags/<name> and the object it names (annotated tag object or commit), reachable from the commit',
} as const;

/** `POST /snapshots/negotiate`: the commit a local run is of, and what the client has. */
export const NegotiateBody = {
  type: 'object',
  additionalProperties: false,
  required: ['repository', 'commit'],
  properties: {
    repository: { type: 'string', minLength: 1, maxLength: 256, description: 'owner/repo' },
    commit: { ...OBJECT_ID, description: "the run's commit: HEAD, or the working tree's commit on top of it" },
    tags: TAGS,
    candidates: { type: 'array', maxItems: 1024, items: OBJECT_ID, description: 'commits the client has, nearest first' },
    shallow: { type: 'boolean', description: "whether the client's history is shallow" },
  },
} as const;

export interface NegotiateBodyType {
  readonly repository: string;
  readonly commit: string;
  readonly tags?: readonly { readonly name: string; readonly object: string }[];
  readonly candidates?: readonly string[];
  readonly shallow?: boolean;
}

export const NegotiationViewSchema = {
  type: 'object',
  required: ['repository', 'sha', 'complete', 'common', 'missing_objects'],
  properties: {
    repository: { type: 'string' },
    sha: { type: 'string' },
    complete: { type: 'boolean' },
    common: { type: ['string', 'null'] },
    missing_objects: { type: 'array', items: { type: 'string' } },
  },
} as const;

/** The JSON line before the pack in `POST /snapshots/pack`. */
export const PackHeader = {
  type: 'object',
  additionalProperties: false,
  required: ['repository', 'commit'],
  properties: {
    repository: NegotiateBody.properties.repository,
    commit: NegotiateBody.properties.commit,
    tags: TAGS,
    shallow: { type: 'array', maxItems: 1_000_000, items: OBJECT_ID, description: "the client's shallow commits (its history stops there)" },
  },
} as const;

export interface PackHeaderType {
  readonly repository: string;
  readonly commit: string;
  readonly tags?: readonly { readonly name: string; readonly object: string }[];
  readonly shallow?: readonly string[];
}

export const PackViewSchema = {
  type: 'object',
  required: ['repository', 'sha', 'objects', 'bytes'],
  properties: { repository: { type: 'string' }, sha: { type: 'string' }, objects: { type: 'integer' }, bytes: { type: 'integer' } },
} as const;

/** What a schema error becomes: one InputError naming the field and what it takes. */
export function historySchemaError(error: Pick<FastifySchemaValidationError, 'keyword' | 'instancePath' | 'params' | 'message'> | undefined, what: string): InputError {
  const field = (error?.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const named = field === '' ? what : `${what} field ${field}`;
  let message: string;
  switch (error?.keyword) {
    case 'required':
      message = `${what} needs ${String(error.params['missingProperty'])}`;
      break;
    case 'additionalProperties':
      message = `${what} has an unknown field '${String(error.params['additionalProperty'])}'`;
      break;
    case 'pattern':
      message = `${named} must be a full object id (40 or 64 lower-case hex digits)`;
      break;
    case 'maxItems':
      message = `${named} has more than ${String(error.params['limit'])} entries`;
      break;
    default:
      message = `${named} ${error?.message ?? 'is not valid'}`;
  }
  return new InputError(message, { code: 'invalid_request', details: { field } });
}

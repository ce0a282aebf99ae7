import type { FastifyInstance, FastifyReply, FastifySchemaValidationError } from 'fastify';
import { InputError } from '../../../core/kernel/index.js';
import { contentDisposition } from './artifact-names.js';
import { toArtifactView } from './artifact-view.js';
import type { OpenedArtifact, RunArtifacts } from './run-artifacts.js';

/** Ids are positive whole numbers the store can hold (bigint, and exact in JavaScript). */
const id = (what: string) => ({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: `the ${what} id` }) as const;

export const RunParams = { type: 'object', required: ['run_id'], properties: { run_id: id('run') } } as const;
export const ArtifactParams = { type: 'object', required: ['run_id', 'artifact_id'], properties: { run_id: id('run'), artifact_id: id('artifact') } } as const;

const nullableString = { type: ['string', 'null'] } as const;
const ArtifactListSchema = {
  type: 'object',
  required: ['artifacts'],
  properties: {
    artifacts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name', 'size', 'digest', 'content_type', 'job_id', 'created_at', 'expires_at'],
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          size: { type: 'integer' },
          digest: nullableString,
          content_type: nullableString,
          job_id: { type: 'integer' },
          created_at: { type: 'string' },
          expires_at: { type: 'string' },
        },
      },
    },
  },
} as const;

/**
 * The stored bytes as uploaded, streamed: the zip upload-artifact made (`application/zip`,
 * `<name>.zip`), or a raw upload's file under its own name and type. The same answer as the
 * signed URL jobs download from.
 */
export function sendArtifact(reply: FastifyReply, opened: OpenedArtifact): FastifyReply {
  const { artifact, blob } = opened;
  const type = artifact.mimeType ?? blob.contentType ?? 'application/octet-stream';
  return reply
    .header('content-type', type)
    .header('content-length', blob.size)
    .header('content-disposition', contentDisposition(artifact.name, type))
    .header('cache-control', 'no-store')
    .send(blob.body);
}

/** Schema errors as one line a person can act on (ids are the usual mistake). */
export function idErrorFormatter(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const error = errors[0];
  const field = error?.instancePath.replace(/^\//, '') ?? '';
  if (field === 'run_id' || field === 'artifact_id') {
    return new InputError(`${field} must be a positive whole number (${field === 'run_id' ? 'the run id svc run and svc status show' : 'an id from GET /api/v1/runs/{run_id}/artifacts'})`, { code: 'invalid_request' });
  }
  return new InputError(`${dataVar} ${field} ${error?.message ?? 'is not valid'}`.trim(), { code: 'invalid_request' });
}

/**
 * `GET /runs/{run_id}/artifacts`: the run's artifacts (ready and unexpired, oldest first).
 * `GET /runs/{run_id}/artifacts/{artifact_id}/zip`: one of them, streamed (sendArtifact).
 * Mounted under /api/v1 with the system bearer.
 */
export function registerArtifactApiRoutes(app: FastifyInstance, deps: { readonly artifacts: RunArtifacts }): void {
  const { artifacts } = deps;
  app.setSchemaErrorFormatter(idErrorFormatter);

  app.get<{ Params: { run_id: number } }>('/runs/:run_id/artifacts', { schema: { params: RunParams, response: { 200: ArtifactListSchema } } }, async (request) => {
    const run = await artifacts.run(request.params.run_id);
    return { artifacts: (await artifacts.list(run)).map(toArtifactView) };
  });

  app.get<{ Params: { run_id: number; artifact_id: number } }>('/runs/:run_id/artifacts/:artifact_id/zip', { schema: { params: ArtifactParams } }, async (request, reply) => {
    const run = await artifacts.run(request.params.run_id);
    return sendArtifact(reply, await artifacts.open(run, request.params.artifact_id));
  });
}

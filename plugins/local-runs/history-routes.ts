import { Readable } from 'node:stream';
import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { InputError, SvcError, type Logger } from '../../core/kernel/index.js';
import type { Clock, SnapshotPackImport, SnapshotStore } from '../../core/ports/index.js';
import {
  historySchemaError,
  NegotiateBody,
  NegotiationViewSchema,
  PackHeader,
  PackViewSchema,
  TAGS_BODY_LIMIT,
  type NegotiateBodyType,
  type PackHeaderType,
} from './history-schemas.js';
import { readHeaderLine } from './pack-body.js';
import { discardRest } from './snapshot-route.js';
import { limitUpload, tooLarge } from './upload-limit.js';

export interface HistoryRouteDependencies {
  readonly snapshots: SnapshotStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly maxBytes: number;
  readonly retentionMs: number;
}

/** The pack route's body: one line of JSON (PackHeader), a newline, then a git pack. */
export const PACK_BODY_TYPE = 'application/x-svc-snapshot-pack';

let headerValidator: ValidateFunction<PackHeaderType> | undefined;

/**
 * A local run of a git work tree sends its own commit (`svc run`): `POST /snapshots/negotiate`
 * offers the run's commit, its tags and the commits the client has; the answer is `complete`
 * (the server holds it all: the tags are recorded and the commit kept for the retention) or what
 * is missing, and then `POST /snapshots/pack` sends a pack of just that (thin against `common`).
 * A second run of an unchanged tree is one small request; of a changed one, a pack of the change.
 */
export async function registerHistoryRoutes(app: FastifyInstance, deps: HistoryRouteDependencies): Promise<void> {
  app.setSchemaErrorFormatter((errors) => historySchemaError(errors[0], 'the negotiation body'));
  headerValidator ??= new Ajv({ strict: true }).compile<PackHeaderType>(PackHeader);
  const validateHeader = headerValidator;
  app.addContentTypeParser(PACK_BODY_TYPE, (_request, payload, done) => done(null, payload));

  app.post<{ Body: NegotiateBodyType }>(
    '/snapshots/negotiate',
    { bodyLimit: TAGS_BODY_LIMIT, schema: { body: NegotiateBody, response: { 200: NegotiationViewSchema } } },
    async (request) => {
      const { repository, commit, tags = [], candidates = [], shallow = false } = request.body;
      const retainUntil = deps.clock.now() + deps.retentionMs;
      const answer = await deps.snapshots.negotiate(repository, { commit, tags, candidates, shallow, retainUntil });
      deps.logger.debug({ repository, commit, complete: answer.complete }, 'snapshot negotiated');
      return answer.complete
        ? { repository, sha: commit, complete: true, common: null, missing_objects: [] }
        : { repository, sha: commit, complete: false, common: answer.common ?? null, missing_objects: answer.missingObjects };
    },
  );

  app.post('/snapshots/pack', { schema: { response: { 201: PackViewSchema } } }, async (request, reply) => {
    if (!(request.body instanceof Readable)) {
      throw new SvcError(`send the pack as ${PACK_BODY_TYPE}: one line of JSON, a newline, then a git pack`, 415, 'unsupported_media_type');
    }
    const upload = request.body;
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > deps.maxBytes) {
      reply.header('connection', 'close');
      throw tooLarge(deps.maxBytes, 'pack');
    }
    const limited = limitUpload(upload, deps.maxBytes, 'pack');
    let header: PackHeaderType;
    let imported: SnapshotPackImport;
    try {
      const { line, rest } = await readHeaderLine(limited.stream, TAGS_BODY_LIMIT);
      header = parseHeader(line, validateHeader);
      imported = await deps.snapshots.importPack(header.repository, rest, {
        commit: header.commit,
        tags: header.tags ?? [],
        shallow: header.shallow ?? [],
        retainUntil: deps.clock.now() + deps.retentionMs,
      });
    } catch (error) {
      discardRest(upload, reply);
      throw limited.failure() ?? error;
    }
    deps.logger.debug({ repository: header.repository, ...imported }, 'snapshot pack received');
    return reply.status(201).send({ repository: header.repository, ...imported });
  });
}

function parseHeader(line: Buffer, validate: ValidateFunction<PackHeaderType>): PackHeaderType {
  let value: unknown;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch (error) {
    throw new InputError(`the pack's header line is not JSON (${(error as Error).message}); send {"repository", "commit", "tags", "shallow"} on one line before the pack`, {
      code: 'invalid_request',
    });
  }
  if (!validate(value)) throw historySchemaError(validate.errors?.[0], "the pack's header line");
  return value;
}

import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SvcError, type Logger } from '../../core/kernel/index.js';
import type { Clock, SnapshotCommit, SnapshotStore } from '../../core/ports/index.js';
import { limitUpload, tooLarge } from './upload-limit.js';
import { SnapshotQuery, SnapshotViewSchema } from './schemas.js';

export interface SnapshotRouteDependencies {
  readonly snapshots: SnapshotStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly maxBytes: number;
  readonly retentionMs: number;
}

/** What `svc run` sends: a tar, or a tar.gz (told apart by its bytes, not by this header). */
export const ARCHIVE_TYPES = ['application/x-tar', 'application/gzip', 'application/x-gzip', 'application/octet-stream'] as const;

const SNAPSHOT_AUTHOR = { authorName: 'svc', authorEmail: 'svc@localhost' } as const;

interface SnapshotQueryType {
  repository: string;
  parent?: string;
}

/** How many times SVC_SNAPSHOT_MAX_BYTES an archive may unpack to (source trees gzip about 4:1). */
export const UNPACKED_RATIO = 4;

/**
 * `POST /snapshots?repository=owner/repo[&parent=<sha>]` with a tar or tar.gz body: the working
 * tree becomes one commit in the repository's snapshot store, streamed from the socket into
 * `git fast-import` (never held in memory), and is kept for the checkout retention. Answers 201
 * `{repository, sha, tree, files, bytes}`. A bad repository name or a refused archive entry is
 * 400 with the store's message; past the size limit, 413.
 */
export function registerSnapshotRoute(app: FastifyInstance, deps: SnapshotRouteDependencies): void {
  // The body stays a stream: the parser hands the request itself to the handler.
  app.addContentTypeParser([...ARCHIVE_TYPES], (_request, payload, done) => done(null, payload));

  app.post<{ Querystring: SnapshotQueryType }>(
    '/snapshots',
    { schema: { querystring: SnapshotQuery, response: { 201: SnapshotViewSchema } } },
    async (request, reply) => {
      const { repository, parent } = request.query;
      const upload = uploadOf(request.body, request.headers['content-type']);
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > deps.maxBytes) {
        reply.header('connection', 'close');
        throw tooLarge(deps.maxBytes);
      }
      const limited = limitUpload(upload ?? Readable.from([]), deps.maxBytes);
      let commit: SnapshotCommit;
      try {
        commit = await deps.snapshots.importTar(repository, limited.stream, {
          ...SNAPSHOT_AUTHOR,
          message: 'svc run snapshot',
          timestamp: deps.clock.now(),
          retainUntil: deps.clock.now() + deps.retentionMs,
          // A small gzip can unpack to gigabytes: the tar itself is bounded too.
          maxUnpackedBytes: UNPACKED_RATIO * deps.maxBytes,
          ...(parent === undefined ? {} : { parent }),
        });
      } catch (error) {
        discardRest(upload, reply);
        throw limited.failure() ?? error;
      }
      deps.logger.debug({ repository, ...commit }, 'snapshot uploaded');
      return reply.status(201).send({ repository, ...commit });
    },
  );
}

/** The request stream our parser passed on; a JSON or text body (parsed by Fastify's own parsers) is refused. */
function uploadOf(body: unknown, contentType: string | undefined): Readable | undefined {
  if (body === undefined || body instanceof Readable) return body;
  throw new SvcError(
    `send the snapshot as a tar or tar.gz body (content-type ${ARCHIVE_TYPES.join(', ')}), not ${contentType ?? 'this'}`,
    415,
    'unsupported_media_type',
  );
}

/**
 * A refused upload may still be arriving: drop the rest as it comes and close the connection
 * after the answer, so the client reads the error instead of a reset, and nothing is kept.
 */
export function discardRest(upload: Readable | undefined, reply: FastifyReply): void {
  if (upload === undefined || upload.readableEnded) return;
  reply.header('connection', 'close');
  upload.unpipe();
  upload.resume();
}

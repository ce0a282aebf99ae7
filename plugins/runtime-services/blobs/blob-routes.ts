import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InputError, isSvcError, SvcError, type Logger } from '../../../core/kernel/index.js';
import type { BlobWriterCheck } from './blob-writers.js';
import type { BlockBlobs } from './block-blobs.js';
import { checkBlockId, parseBlockList } from './block-list.js';
import { parseByteRange } from './byte-range.js';
import type { BlobUrlCapabilities } from './url-signer.js';

/** Where the signed upload and download URLs point: `/_runtime/blobs/<blob id>?sp=&se=&sig=`. */
export const BLOB_ROUTE = '/_runtime/blobs';
/** The storage service version we answer as (the SDK only logs it). */
const MS_VERSION = '2025-01-05';
/** A block list of 50,000 ids of 64 bytes fits in a few MiB. */
const MAX_BLOCK_LIST_BYTES = 8 * 1024 * 1024;

const paramsSchema = {
  type: 'object',
  required: ['blobId'],
  properties: { blobId: { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' } },
} as const;

interface BlobRequest {
  Params: { blobId: string };
  Querystring: Record<string, string | undefined>;
}

export interface BlobRouteDeps {
  readonly blobs: BlockBlobs;
  readonly capabilities: BlobUrlCapabilities;
  /** A write URL writes only while the job that got it runs. */
  readonly writable: BlobWriterCheck;
  readonly logger: Logger;
}

/**
 * The subset of the Azure Blob service the toolkit's Azure SDK and its plain HTTP downloads use,
 * on our signed URLs (RUNNER-PROTOCOL.md §5.3, §5.4): `PUT ?comp=block&blockid=` (Put Block),
 * `PUT ?comp=blocklist` with the XML list (Put Block List), `PUT` with `x-ms-blob-type:
 * BlockBlob` (Put Blob); `GET`/`HEAD` with `Range`/`x-ms-range`. Bodies stream straight to the
 * blob store. Errors are Azure's XML (`<Error><Code>`), 403 `AuthenticationFailed` for a missing,
 * altered or expired signature — never a 500 for a bad request.
 */
export function registerBlobRoutes(app: FastifyInstance, deps: BlobRouteDeps): void {
  const { blobs, capabilities } = deps;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request: FastifyRequest, _payload: IncomingMessage, done: (err: Error | null, body?: unknown) => void) => done(null));
  app.setErrorHandler((error: FastifyError, request, reply) => sendAzureError(reply, error, deps.logger, request));

  app.put<BlobRequest>(`${BLOB_ROUTE}/:blobId`, { schema: { params: paramsSchema } }, async (request, reply) => {
    const { blobId } = request.params;
    capabilities.verify(blobId, 'w', request.query);
    await deps.writable(blobId);
    const { comp, blockid } = request.query;
    const length = contentLength(request);
    const contentType = header(request, 'x-ms-blob-content-type');
    if (comp === 'block') {
      if (blockid === undefined) throw new InputError('Put Block needs the blockid parameter', { code: 'invalid_block_id' });
      await blobs.stageBlock(blobId, checkBlockId(blockid), request.raw, length);
    } else if (comp === 'blocklist') {
      await blobs.commitBlockList(blobId, parseBlockList(await readText(request.raw, MAX_BLOCK_LIST_BYTES)), contentType);
    } else if (comp === undefined) {
      const blobType = header(request, 'x-ms-blob-type');
      if (blobType !== 'BlockBlob') throw new InputError(`only block blobs are served (x-ms-blob-type: BlockBlob), not '${blobType ?? ''}'`, { code: 'unsupported_blob_type' });
      await blobs.putBlob(blobId, request.raw, length, contentType ?? header(request, 'content-type'));
    } else {
      throw new InputError(`comp=${comp} is not served; use block, blocklist or none`, { code: 'unsupported_operation' });
    }
    return common(reply, request).header('etag', `"${blobId}"`).header('x-ms-request-server-encrypted', 'false').status(201).send();
  });

  const read = async (request: FastifyRequest<BlobRequest>, reply: FastifyReply, withBody: boolean) => {
    const { blobId } = request.params;
    const signed = capabilities.verify(blobId, 'r', request.query);
    const state = await blobs.state(blobId);
    if (state === undefined || state.size === undefined) throw new SvcError(`blob ${blobId} does not exist`, 404, 'blob_not_found');
    const range = parseByteRange(header(request, 'x-ms-range') ?? header(request, 'range'), state.size);
    const opened = withBody ? await blobs.open(blobId, range) : undefined;
    common(reply, request)
      .header('accept-ranges', 'bytes')
      .header('x-ms-blob-type', 'BlockBlob')
      .header('etag', `"${blobId}"`)
      .header('content-type', state.contentType ?? 'application/octet-stream')
      .header('content-length', range === undefined ? state.size : range.end - range.start + 1);
    if (signed.contentDisposition !== undefined) reply.header('content-disposition', signed.contentDisposition);
    if (range !== undefined) reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${state.size}`);
    return reply.send(opened?.body);
  };
  app.get<BlobRequest>(`${BLOB_ROUTE}/:blobId`, { schema: { params: paramsSchema }, exposeHeadRoute: false }, (request, reply) => read(request, reply, true));
  app.head<BlobRequest>(`${BLOB_ROUTE}/:blobId`, { schema: { params: paramsSchema } }, (request, reply) => read(request, reply, false));
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function contentLength(request: FastifyRequest): number | undefined {
  const raw = header(request, 'content-length');
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw new InputError(`Content-Length '${raw}' is not a byte count`, { code: 'invalid_header' });
  return Number(raw);
}

function common(reply: FastifyReply, request: FastifyRequest): FastifyReply {
  const clientRequestId = header(request, 'x-ms-client-request-id');
  if (clientRequestId !== undefined) reply.header('x-ms-client-request-id', clientRequestId);
  return reply.header('x-ms-request-id', request.id).header('x-ms-version', MS_VERSION).header('date', new Date().toUTCString());
}

async function readText(stream: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limit) throw new SvcError(`the block list is larger than ${limit} bytes`, 413, 'body_too_large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Our error codes as Azure's (the SDK reads `x-ms-error-code` and the XML `Code`). */
const AZURE_CODES: Readonly<Record<string, string>> = {
  signature_invalid: 'AuthenticationFailed',
  signature_expired: 'AuthenticationFailed',
  blob_not_found: 'BlobNotFound',
  blob_immutable: 'BlobImmutableDueToPolicy',
  invalid_block_list: 'InvalidBlockList',
  invalid_block_id: 'InvalidQueryParameterValue',
  invalid_xml: 'InvalidXmlDocument',
  length_mismatch: 'InvalidInput',
  range_not_satisfiable: 'InvalidRange',
  body_too_large: 'RequestBodyTooLarge',
  unsupported_blob_type: 'InvalidHeaderValue',
  unsupported_operation: 'UnsupportedQueryParameter',
};

function sendAzureError(reply: FastifyReply, error: FastifyError | SvcError, logger: Logger, request: FastifyRequest): FastifyReply {
  let status: number;
  let code: string;
  if (isSvcError(error)) {
    // Azure answers a bad or expired SAS with 403, which its clients do not retry.
    status = error.status === 401 ? 403 : error.status;
    code = AZURE_CODES[error.code] ?? (status >= 500 ? 'InternalError' : 'InvalidInput');
  } else if (error.validation !== undefined) {
    status = 400;
    code = 'InvalidUri';
  } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    status = error.statusCode;
    code = 'InvalidInput';
  } else {
    status = 500;
    code = 'InternalError';
  }
  if (status >= 500) logger.error({ err: error, url: request.url.split('?')[0] }, 'blob request failed');
  const message = status >= 500 ? 'internal error; the server log has the details' : error.message;
  for (const name of ['content-length', 'content-range', 'content-disposition', 'etag']) reply.removeHeader(name);
  const body = `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${escapeXml(message)}</Message></Error>`;
  return reply.status(status).header('x-ms-error-code', code).header('content-type', 'application/xml').send(body);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

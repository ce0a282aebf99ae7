// The client side of `npm run bench:runtime-services`, in its own process as a job step is:
//   node runtime-services-client.mjs <operation> <args JSON>
// Prints {"ms": <elapsed>, ...} on its last line. Each operation makes the calls the toolkit makes:
//   cache-save:     CreateCacheEntry, the Azure SDK upload @actions/cache v2 does (uploadFile,
//                   64 MiB blocks, 8 at a time, one shot up to 128 MiB), FinalizeCacheEntryUpload;
//   cache-restore:  GetCacheEntryDownloadURL, one plain GET streamed to a file (downloadCacheHttpClient);
//   artifact-*:     the real @actions/artifact client (upload and download by name).
// The env is the job step's (ACTIONS_RESULTS_URL, ACTIONS_RUNTIME_TOKEN, GITHUB_SERVER_URL, ...).
import { createWriteStream, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { HttpClient } from '@actions/http-client';
import { BlobClient } from '@azure/storage-blob';

const [operation, argsJson] = process.argv.slice(2);
const args = JSON.parse(argsJson ?? '{}');
const service = 'github.actions.results.api.v1.CacheService';

async function twirp(method, body) {
  const url = new URL(`/twirp/${service}/${method}`, process.env.ACTIONS_RESULTS_URL).href;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.ACTIONS_RUNTIME_TOKEN}` },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

const operations = {
  async 'cache-save'() {
    const size = statSync(args.file).size;
    const created = await twirp('CreateCacheEntry', { key: args.key, version: args.version });
    const blob = new BlobClient(created.signed_upload_url).getBlockBlobClient();
    await blob.uploadFile(args.file, { blockSize: 64 * 1024 * 1024, concurrency: 8, maxSingleShotSize: 128 * 1024 * 1024 });
    await twirp('FinalizeCacheEntryUpload', { key: args.key, version: args.version, size_bytes: String(size) });
    return { bytes: size };
  },
  async 'cache-restore'() {
    const hit = await twirp('GetCacheEntryDownloadURL', { key: args.key, version: args.version });
    if (!hit.ok) throw new Error('cache miss');
    // As downloadCacheHttpClient does for a non-Azure host: one GET with @actions/http-client, piped to the file.
    const response = await new HttpClient('actions/cache').get(hit.signed_download_url);
    if (response.message.statusCode !== 200) throw new Error(`download: ${response.message.statusCode}`);
    await pipeline(response.message, createWriteStream(args.file));
    return { bytes: statSync(args.file).size };
  },
  async 'artifact-upload'() {
    const { DefaultArtifactClient } = await import('@actions/artifact');
    return new DefaultArtifactClient().uploadArtifact(args.name, args.files, args.root, args.options ?? {});
  },
  async 'artifact-download'() {
    const { DefaultArtifactClient } = await import('@actions/artifact');
    const client = new DefaultArtifactClient();
    const { artifact } = await client.getArtifact(args.name);
    return client.downloadArtifact(artifact.id, { path: args.path });
  },
};

const run = operations[operation];
if (run === undefined) throw new Error(`unknown operation ${operation}`);
// Toolkit modules are loaded before the clock starts, so the figure is the transfer's.
if (operation.startsWith('artifact')) await import('@actions/artifact');
const started = performance.now();
const result = await run();
process.stdout.write(`\n${JSON.stringify({ ms: performance.now() - started, result })}\n`);

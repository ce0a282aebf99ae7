import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { apiRequest, resolveConnection, type CommandContext, type ServerConnection } from '../../../core/kernel/cli/index.js';
import type { ArtifactListView, ArtifactView } from '../artifacts/artifact-view.js';
import { humanSize } from './format-artifacts.js';
import { unpackZip } from './unpack-zip.js';

export interface DownloadRequest {
  readonly runId: number;
  /** Only this artifact; every one of the run when undefined. */
  readonly name?: string;
  readonly dir: string;
}

/** The types download-artifact unzips (its `streamExtractExternal`); anything else is a raw upload, saved as one file. */
const ZIP_TYPES = new Set(['application/zip', 'application/x-zip-compressed', 'application/zip-compressed']);

/**
 * Downloads a run's artifacts (or the one named) into `<dir>/<name>/`: a zip (what upload-artifact
 * uploads) unpacked there, a raw upload (`archive: false`) saved there under its file name. Each
 * is streamed to a file in `dir` first, checked against the digest its uploader computed, then
 * unpacked from there and removed; nothing is held whole in memory. One line per artifact.
 */
export async function downloadArtifacts(request: DownloadRequest, context: CommandContext): Promise<void> {
  const { runId, name } = request;
  const connection = await resolveConnection(context.env, process.cwd());
  const { artifacts } = (await (await apiRequest(connection, 'GET', `/api/v1/runs/${runId}/artifacts`)).json()) as ArtifactListView;
  const chosen = name === undefined ? artifacts : artifacts.filter((artifact) => artifact.name === name);
  if (chosen.length === 0) {
    const names = artifacts.map((artifact) => artifact.name).join(', ');
    if (name === undefined) throw new Error(`run ${runId} has no artifacts (a running run may upload some yet)`);
    throw new Error(`run ${runId} has no artifact named '${name}'; ${artifacts.length === 0 ? 'it has no artifacts' : `its artifacts: ${names}`}`);
  }
  const dir = resolve(request.dir);
  await mkdir(dir, { recursive: true });
  for (const artifact of chosen) {
    const target = join(dir, directoryName(artifact.name));
    const outcome = await downloadOne(connection, runId, artifact, dir, target);
    context.stdout.write(`${artifact.name}: ${outcome} -> ${target}\n`);
  }
}

/** The name as a directory: the server refuses names that are not one, and so does the CLI, whatever a server sends. */
function directoryName(name: string): string {
  if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name)) throw new Error(`the server sent an artifact name that is not a directory name: ${JSON.stringify(name)}`);
  return name;
}

async function downloadOne(connection: ServerConnection, runId: number, artifact: ArtifactView, dir: string, target: string): Promise<string> {
  const response = await apiRequest(connection, 'GET', `/api/v1/runs/${runId}/artifacts/${artifact.id}/zip`);
  // Beside the target, so a raw file is renamed into place, never copied.
  const partial = join(dir, `.svc-artifact-${artifact.id}-${process.pid}.partial`);
  try {
    const digest = await save(response.body, partial);
    if (artifact.digest !== null && artifact.digest !== digest) {
      throw new Error(`the download of '${artifact.name}' does not match the digest its uploader computed (${artifact.digest}, got ${digest}): try again`);
    }
    await mkdir(target, { recursive: true });
    const type = (response.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
    if (ZIP_TYPES.has(type)) {
      const unpacked = await unpackZip(partial, target).catch((error: unknown) => {
        throw new Error(`the zip of '${artifact.name}' could not be unpacked: ${(error as Error).message}`);
      });
      return `${unpacked.files} file${unpacked.files === 1 ? '' : 's'}, ${humanSize(unpacked.bytes)}`;
    }
    await rename(partial, join(target, fileName(response.headers['content-disposition'], artifact.name)));
    return `1 file, ${humanSize(artifact.size)}`;
  } finally {
    await rm(partial, { force: true });
  }
}

/** Streams the body to `path`; its `sha256:<hex>` digest. */
async function save(body: Readable, path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(
    body,
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        hash.update(chunk);
        yield chunk;
      }
    },
    createWriteStream(path),
  );
  return `sha256:${hash.digest('hex')}`;
}

/** A raw upload's file name, from `Content-Disposition` (`filename*` first) as download-artifact reads it; its base name only. */
function fileName(disposition: string | undefined, fallback: string): string {
  const star = /filename\*\s*=\s*UTF-8''([^;\r\n]*)/i.exec(disposition ?? '')?.[1];
  const plain = /(?<!\*)filename\s*=\s*"?([^;\r\n"]*)"?/i.exec(disposition ?? '')?.[1];
  let name = fallback;
  try {
    name = star !== undefined ? decodeURIComponent(star.trim()) : (plain?.trim() ?? fallback);
  } catch {
    // A malformed escape: the artifact's name, which is the file's for a raw upload.
  }
  const base = basename(name.replace(/\\/g, '/'));
  return base === '' || base === '.' || base === '..' ? directoryName(fallback) : base;
}

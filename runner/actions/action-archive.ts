/**
 * A remote action's files (RUNNER-PROTOCOL.md §5.5): the tarball downloaded with
 * `Authorization: Basic x-access-token:<token>` (3 attempts; 404 and 403 are final), checked to
 * hold exactly one top-level directory, whose contents go to `_work/_actions/<owner>/<repo>/<ref>`,
 * marked complete by the sibling `<ref>.completed`.
 *
 * Unlike the official runner, which empties `_actions` at each job start, svc-runner keeps them
 * and writes the resolved commit into the marker: a later job whose ref still resolves to that
 * commit uses the folder as it is, and a ref that moved is downloaded again.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createGunzip } from 'node:zlib';
import { extract as tarExtract } from 'tar-stream';
import { unpackTarGz } from '../../core/node-dist/index.js';
import type { StepLog } from '../handlers/index.js';
import type { DownloadInfo } from './download-info.js';
import { ActionResolveError, fetchWithRetry, safeUrl, type HttpSettings } from './http-retry.js';

const SEGMENT = /^[A-Za-z0-9_.-]+$/;

/** `_actions/<owner>/<repo>/<ref>`; ActionResolveError for a name or ref that is no safe path. */
export function actionDirectory(actionsDir: string, nameWithOwner: string, ref: string): string {
  const parts = [...nameWithOwner.split('/'), ...ref.split('/')];
  if (parts.length < 3 || parts.some((part) => !SEGMENT.test(part) || part === '.' || part === '..')) {
    throw new ActionResolveError(`'${nameWithOwner}@${ref}' cannot be stored under ${actionsDir}: the name or ref is not a plain path`);
  }
  return join(actionsDir, ...parts);
}

/** The commit a completed download holds, or undefined when there is none. */
export async function completedSha(directory: string): Promise<string | undefined> {
  try {
    const [marker, folder] = await Promise.all([readFile(`${directory}.completed`, 'utf8'), stat(directory)]);
    return folder.isDirectory() ? marker.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** The top-level names of a tar.gz (pax headers skipped). */
async function topLevelNames(archive: string): Promise<{ readonly dirs: Set<string>; readonly files: string[] }> {
  const dirs = new Set<string>();
  const files: string[] = [];
  const extract = tarExtract();
  const feeding = pipeline(createReadStream(archive), createGunzip(), extract);
  feeding.catch(() => undefined);
  try {
    for await (const entry of extract) {
      const type = String(entry.header.type);
      const parts = entry.header.name.replace(/^\.\//, '').split('/').filter((part) => part !== '');
      const top = parts[0];
      if (!type.startsWith('pax-') && !type.startsWith('gnu-') && top !== undefined) {
        if (parts.length === 1 && type !== 'directory') files.push(top);
        else dirs.add(top);
      }
      entry.resume();
    }
    await feeding;
  } finally {
    extract.destroy();
  }
  return { dirs, files };
}

async function download(info: DownloadInfo, token: string, file: string, http: HttpSettings): Promise<void> {
  const key = `${info.nameWithOwner}@${info.ref}`;
  const response = await fetchWithRetry(http, info.tarballUrl, {
    method: 'GET',
    headers: { authorization: `Basic ${Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64')}`, 'user-agent': 'svc-runner' },
  });
  if (response.status === 404) throw new ActionResolveError(`An action could not be found at the URI '${safeUrl(info.tarballUrl)}' (${key})`);
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new ActionResolveError(`Failed to download action '${key}': GET ${safeUrl(info.tarballUrl)} answered ${response.status}`);
  }
  await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(file));
}

/**
 * Makes sure the action's commit is in `_actions/<owner>/<repo>/<ref>`; answers that folder.
 * `token` authenticates the download (the answer's, else the job's `github.token`).
 */
export async function ensureActionFiles(actionsDir: string, info: DownloadInfo, token: string, log: StepLog, http: HttpSettings): Promise<string> {
  const dest = actionDirectory(actionsDir, info.nameWithOwner, info.ref);
  if ((await completedSha(dest)) === info.resolvedSha) {
    log.debug(`Action '${info.nameWithOwner}@${info.ref}' (SHA:${info.resolvedSha}) already downloaded at '${dest}'.`);
    return dest;
  }
  log.write(`Download action repository '${info.nameWithOwner}@${info.ref}' (SHA:${info.resolvedSha})`);
  const temp = join(actionsDir, `_temp_${randomUUID()}`);
  const archive = join(temp, `${randomUUID()}.tar.gz`);
  const staging = join(temp, 'unpacked');
  await mkdir(temp, { recursive: true });
  try {
    await download(info, token, archive, http);
    let tops;
    try {
      tops = await topLevelNames(archive);
    } catch (error) {
      throw new ActionResolveError(`The archive of '${info.nameWithOwner}@${info.ref}' is not a readable tar.gz: ${(error as Error).message}`);
    }
    if (tops.files.length > 0 || tops.dirs.size !== 1) {
      throw new ActionResolveError(`The archive of '${info.nameWithOwner}@${info.ref}' contains '${tops.dirs.size}' directories${tops.files.length > 0 ? ` and files at its top (${tops.files.join(', ')})` : ''}; exactly one top-level directory is required`);
    }
    try {
      await unpackTarGz(archive, staging);
    } catch (error) {
      throw new ActionResolveError(`Can't extract the archive of '${info.nameWithOwner}@${info.ref}': ${(error as Error).message}`);
    }
    await rm(`${dest}.completed`, { force: true });
    await rm(dest, { recursive: true, force: true });
    await mkdir(dirname(dest), { recursive: true });
    await rename(staging, dest);
    await writeFile(`${dest}.completed`, `${info.resolvedSha}\n`);
    log.debug(`Archive of '${info.nameWithOwner}@${info.ref}' unpacked into '${dest}'.`);
    return dest;
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

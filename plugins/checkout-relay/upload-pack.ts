import { PassThrough, pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { Logger } from '../../core/kernel/index.js';
import type { ResolvedCheckout } from './checkout-target.js';
import { gitEnvironment, startGit, type GitChild } from './git-process.js';
import { createRepositoryView } from './repository-view.js';

/**
 * `git upload-pack --stateless-rpc` over a repository view (repository-view.ts), as
 * git-http-backend runs it: the advertisement for `GET info/refs`, one exchange per `POST
 * git-upload-pack`. Wants by object id are allowed (actions/checkout fetches the run's sha, a
 * partial clone fetches blobs by id later): the job's token covers its repository, as a
 * GITHUB_TOKEN covers its repository on the forge, and the advertisement names the run's commit only.
 */
const UPLOAD_PACK_CONFIG = [
  'uploadpack.allowTipSHA1InWant=true',
  'uploadpack.allowReachableSHA1InWant=true',
  'uploadpack.allowAnySHA1InWant=true',
  'uploadpack.allowFilter=true',
].flatMap((setting) => ['-c', setting]);

export interface UploadPackDeps {
  readonly logger: Logger;
}

export interface UploadPackRequest {
  readonly target: ResolvedCheckout;
  /** The `Git-Protocol` header (`version=2`), checked; passed on as `GIT_PROTOCOL`. */
  readonly protocol: string | undefined;
}

export interface UploadPackAnswer {
  readonly output: Readable;
  /** Stops git (the client went away before the answer was read). */
  stop(): void;
}

/** The `Git-Protocol` header when it has the shape git sends (`key=value` pairs joined by `:`); otherwise ignored. */
export function gitProtocol(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && value.length <= 256 && /^[A-Za-z0-9._=:-]+$/.test(value) ? value : undefined;
}

/** Whether the client asked for protocol v2 (then the advertisement has no `# service=` preamble). */
export function isProtocolV2(protocol: string | undefined): boolean {
  return protocol?.split(':').includes('version=2') ?? false;
}

async function run(deps: UploadPackDeps, request: UploadPackRequest, advertise: boolean): Promise<{ child: GitChild; stop: () => void }> {
  const { source } = request.target;
  const view = await createRepositoryView(source.gitDir, request.target, await source.history());
  const args = [...UPLOAD_PACK_CONFIG, 'upload-pack', '--stateless-rpc', ...(advertise ? ['--advertise-refs'] : []), view.gitDir];
  const env = gitEnvironment(view.gitDir, request.protocol === undefined ? {} : { GIT_PROTOCOL: request.protocol });
  let child: GitChild;
  try {
    child = await startGit(args, env);
  } catch (error) {
    await view.remove();
    throw error;
  }
  void child.exited.then(async (code) => {
    await view.remove();
    // A client's bad request is answered in the protocol (an `ERR` packet) before git exits non-zero.
    if (code !== 0) deps.logger.debug({ repository: request.target.repository, code, stderr: child.stderr() }, 'upload-pack exited non-zero');
  });
  const stop = () => {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGTERM');
  };
  return { child, stop };
}

/** The ref advertisement (`info/refs?service=git-upload-pack`); v0/v1 get the smart-HTTP preamble. */
export async function advertiseRefs(deps: UploadPackDeps, request: UploadPackRequest): Promise<UploadPackAnswer> {
  const { child, stop } = await run(deps, request, true);
  child.process.stdin.end();
  if (isProtocolV2(request.protocol)) return { output: child.process.stdout, stop };
  const output = new PassThrough();
  output.write('001e# service=git-upload-pack\n0000');
  child.process.stdout.pipe(output);
  return { output, stop };
}

/** One exchange: the request body (gzip when `Content-Encoding: gzip`) in, the result out, both streamed. */
export async function uploadPack(deps: UploadPackDeps, request: UploadPackRequest, body: Readable, gzip: boolean): Promise<UploadPackAnswer> {
  const { child, stop } = await run(deps, request, false);
  const done = (error: Error | null | undefined) => {
    if (error) stop();
  };
  if (gzip) pipeline(body, createGunzip(), child.process.stdin, done);
  else pipeline(body, child.process.stdin, done);
  return { output: child.process.stdout, stop };
}

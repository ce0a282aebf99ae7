import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { acceptsCredential, AuthError } from '../../../core/kernel/index.js';
import { JOB_TOKEN_CREDENTIAL, type RuntimeJob, type RuntimeJobContext, type RuntimeJobs } from '../../../core/ports/index.js';

/** Job contexts kept (each is a plan of the job's workflow, so worth keeping for the job's calls). */
const CONTEXTS_KEPT = 256;

export interface RuntimeAuth {
  /**
   * An `onRequest` hook: the request's `Authorization: Bearer <ACTIONS_RUNTIME_TOKEN>` must name a
   * running job (else an `AuthError`, which the group's error handler turns into its 401).
   */
  readonly requireJob: onRequestAsyncHookHandler;
  /** Puts every route `app` (a context) registers from now on behind `requireJob`, declared as taking the job token (route table). */
  guard(app: FastifyInstance): void;
  /** The job `requireJob` admitted the request for. */
  jobOf(request: FastifyRequest): RuntimeJob;
  /** The job's run and plan facts; one planning per job attempt. */
  contextOf(job: RuntimeJob): Promise<RuntimeJobContext>;
}

export function createRuntimeAuth(runtimeJobs: RuntimeJobs): RuntimeAuth {
  const jobs = new WeakMap<FastifyRequest, RuntimeJob>();
  const contexts = new Map<string, Promise<RuntimeJobContext>>();
  const requireJob: onRequestAsyncHookHandler = async (request) => {
    const token = bearer(request.headers.authorization);
    if (token === undefined) throw new AuthError('this route needs the job runtime token (Authorization: Bearer $ACTIONS_RUNTIME_TOKEN)', { code: 'unauthenticated' });
    jobs.set(request, await runtimeJobs.verify(token));
  };
  return {
    requireJob,
    guard(app) {
      acceptsCredential(app, JOB_TOKEN_CREDENTIAL);
      app.addHook('onRequest', requireJob);
    },
    jobOf(request) {
      const job = jobs.get(request);
      if (job === undefined) throw new Error(`no runtime token was verified for ${request.method} ${request.url}: add requireJob to the route's context`);
      return job;
    },
    contextOf(job) {
      const key = `${job.jobId}:${job.attempt}`;
      let context = contexts.get(key);
      if (context === undefined) {
        context = runtimeJobs.describe(job);
        context.catch(() => contexts.delete(key));
        contexts.set(key, context);
        if (contexts.size > CONTEXTS_KEPT) contexts.delete(contexts.keys().next().value as string);
      }
      return context;
    },
  };
}

/** The token of `Bearer <token>` (scheme in any case); undefined for anything else. */
export function bearer(authorization: string | undefined): string | undefined {
  const match = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

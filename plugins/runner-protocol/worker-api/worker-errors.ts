/**
 * The typed exceptions the Worker's calls answer with (§2.9), from core/protocol's table:
 * `TaskOrchestrationPlanNotFoundException`, `…PlanSecurityException` and `…PlanTerminatedException`
 * make the Worker report the job failed without retrying its `JobCompleted`; the timeline ones
 * are plain failures to it. Everything else goes through the plugin's VSS error handler.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { SvcError } from '../../../core/kernel/index.js';
import { VSS_EXCEPTIONS, vssException, type VssExceptionTypeKey } from '../../../core/protocol/index.js';
import { installVssErrorHandler } from '../vss/index.js';

export class WorkerVssError extends SvcError {
  readonly typeKey: VssExceptionTypeKey;

  constructor(typeKey: VssExceptionTypeKey, message: string, code = 'runner_worker_error') {
    super(message, VSS_EXCEPTIONS[typeKey].status, code);
    this.typeKey = typeKey;
  }
}

export const planNotFound = (message: string) => new WorkerVssError('TaskOrchestrationPlanNotFoundException', message, 'plan_not_found');
export const timelineNotFound = (message: string) => new WorkerVssError('TimelineNotFoundException', message, 'timeline_not_found');
export const planSecurity = (message: string) => new WorkerVssError('TaskOrchestrationPlanSecurityException', message, 'job_token_forbidden');
export const planTerminated = (message: string) => new WorkerVssError('TaskOrchestrationPlanTerminatedException', message, 'plan_terminated');

/**
 * The plugin's VSS error handler, plus the typed Worker exceptions above, for the routes
 * `register` adds (in a child context, so neither handler overrides the other in one scope).
 */
export async function withWorkerErrors(app: FastifyInstance, register: (scoped: FastifyInstance) => void): Promise<void> {
  installVssErrorHandler(app);
  const fallback = app.errorHandler;
  await app.register(async (scoped) => {
    scoped.setErrorHandler(function handleWorkerError(error: FastifyError, request, reply) {
      if (error instanceof WorkerVssError) return reply.status(error.status).type('application/json').send(vssException(error.typeKey, error.message));
      return fallback.call(this, error, request, reply);
    });
    register(scoped);
  });
}

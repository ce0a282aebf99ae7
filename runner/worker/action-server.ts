/**
 * What the action resolver needs of the job's server (RUNNER-PROTOCOL.md §5.5), from the job
 * message: the mode's wire, the SystemVssConnection and the job token, plan and job ids, the
 * launch endpoint (run service), `system.github.token` for downloads, the lockfile pins, and the
 * workflow's repository and commit for `uses: $/path` when `actions_self_repository` is on.
 */
import type { ActionServer } from '../handlers/index.js';
import { variable, variableFlag } from './job-message/index.js';
import type { WorkerJob } from './worker-job.js';

export function actionServerOf(job: WorkerJob): ActionServer {
  const { message } = job;
  const launchUrl = variable(message, 'system.github.launch_endpoint')?.value ?? '';
  const githubToken = variable(message, 'system.github.token')?.value ?? '';
  const context = job.stepContexts({})['job'];
  const jobContext = typeof context === 'object' && context !== null && !Array.isArray(context) ? (context as Record<string, unknown>) : {};
  const name = jobContext['workflow_repository'];
  const sha = jobContext['workflow_sha'];
  return {
    mode: message.mode,
    url: message.systemConnection.url,
    accessToken: message.systemConnection.authorization?.parameters['AccessToken'] ?? '',
    planId: message.plan.planId,
    scopeIdentifier: message.plan.scopeIdentifier,
    hubName: message.plan.planType,
    jobId: message.jobId,
    ...(launchUrl === '' ? {} : { launchUrl }),
    ...(githubToken === '' ? {} : { githubToken }),
    ...(message.dependencies === undefined ? {} : { dependencies: message.dependencies }),
    ...(variableFlag(message, 'actions_self_repository') === true && typeof name === 'string' && typeof sha === 'string' && name !== '' && sha !== ''
      ? { selfRepository: { name, sha } }
      : {}),
  };
}

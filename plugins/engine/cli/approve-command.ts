import { apiRequest, resolveConnection, type CommandDefinition } from '../../../core/kernel/cli/index.js';
import type { JobView, RunView } from '../run-view.js';
import { parseRunId, runCommand } from './run-command.js';
import { jobToApprove } from './waiting-job.js';

/**
 * `svc approve <RUN_ID> --job <JOB>`: approves a job its environment's reviewer rule holds
 * (POST /api/v1/runs/{run_id}/jobs/{job_id}/approve). The system bearer is the one local
 * reviewer, so the approval is recorded as `admin_override`.
 */
export const approveCommand: CommandDefinition = {
  name: 'approve',
  description: "approve a job waiting for its environment's reviewer (POST /api/v1/runs/<RUN_ID>/jobs/<JOB_ID>/approve; recorded as admin_override)",
  arguments: [{ name: 'RUN_ID', description: 'the run id', required: true }],
  options: [{ flags: '--job <JOB>', description: 'the job: its id, name, or job key (as svc logs --job takes them)' }],
  run(args, options, context) {
    return runCommand('approve', context, async () => {
      const runId = parseRunId(args[0]);
      const wanted = options['job'];
      if (typeof wanted !== 'string' || wanted.trim() === '') throw new Error(`--job names the job to approve (its id, name or job key; see svc status ${runId})`);
      const connection = await resolveConnection(context.env, process.cwd());
      const run = (await (await apiRequest(connection, 'GET', `/api/v1/runs/${runId}`)).json()) as RunView;
      const job = jobToApprove(runId, run.jobs, wanted);
      const response = await apiRequest(connection, 'POST', `/api/v1/runs/${runId}/jobs/${job.id}/approve`);
      const approved = (await response.json()) as JobView;
      const environment = approved.environment?.name ?? 'its environment';
      context.stdout.write(`approved job ${approved.name} (id ${approved.id}) of run ${runId} for environment ${environment} (admin_override); it is ${approved.status} now\n`);
    });
  },
};

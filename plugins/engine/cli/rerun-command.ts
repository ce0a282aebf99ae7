import { apiRequest, resolveConnection, type CommandDefinition } from '../../../core/kernel/cli/index.js';
import type { RunView } from '../run-view.js';
import { parseRunId, runCommand } from './run-command.js';

/**
 * `svc rerun <RUN_ID> [--failed] [--job <JOB_ID>]`: runs a finished run again in place. It
 * replays the tree the run was created from (the captured snapshot or commit), so fixes made
 * since are not included: submit a new run for those.
 */
export const rerunCommand: CommandDefinition = {
  name: 'rerun',
  description: 're-run a finished run in place (POST /api/v1/runs/<RUN_ID>/rerun); replays the originally captured tree',
  arguments: [{ name: 'RUN_ID', description: 'the run id', required: true }],
  options: [
    { flags: '--failed', description: 'only the failed and cancelled jobs, with their dependants' },
    { flags: '--job <JOB_ID>', description: 'only this job, with its dependants' },
  ],
  run(args, options, context) {
    return runCommand('rerun', context, async () => {
      const runId = parseRunId(args[0]);
      const jobOption = options['job'];
      const body: Record<string, unknown> = {};
      if (options['failed'] === true) body['failed'] = true;
      if (typeof jobOption === 'string') {
        if (!/^[1-9]\d*$/.test(jobOption)) throw new Error(`--job takes a job id (a positive integer, see \`svc status ${runId}\`), got '${jobOption}'`);
        body['job_id'] = Number(jobOption);
      }
      const connection = await resolveConnection(context.env, process.cwd());
      const response = await apiRequest(connection, 'POST', `/api/v1/runs/${runId}/rerun`, body);
      const run = (await response.json()) as RunView;
      const again = run.jobs.filter((job) => job.status !== 'success' && job.status !== 'failure' && job.status !== 'skipped' && job.status !== 'cancelled');
      context.stdout.write(`run ${run.id} attempt ${run.run_attempt}: ${again.length} job${again.length === 1 ? '' : 's'} to run again (${run.status})\n`);
    });
  },
};

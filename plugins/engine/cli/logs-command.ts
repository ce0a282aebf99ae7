import { pipeline } from 'node:stream/promises';
import { apiRequest, resolveConnection, type CommandDefinition } from '../../../core/kernel/cli/index.js';
import { parseRunId, runCommand } from './run-command.js';

/** `svc logs <RUN_ID> [--job <name>] [--step <n>]`: the run's log lines, streamed as they are read. */
export const logsCommand: CommandDefinition = {
  name: 'logs',
  description: 'print the log lines of a run (GET /api/v1/runs/<RUN_ID>/logs)',
  arguments: [{ name: 'RUN_ID', description: 'the run id', required: true }],
  options: [
    { flags: '--job <name>', description: 'only this job: its name, id, or job key (every matrix instance)' },
    { flags: '--step <n>', description: 'only this step number' },
  ],
  run(args, options, context) {
    return runCommand('logs', context, async () => {
      const runId = parseRunId(args[0]);
      const query = new URLSearchParams();
      const job = options['job'];
      const step = options['step'];
      if (typeof job === 'string') {
        if (job.trim() === '') throw new Error('--job needs a job name, id or key');
        query.set('job', job);
      }
      if (typeof step === 'string') {
        if (!/^\d{1,7}$/.test(step)) throw new Error(`--step '${step}' is not a step number (0 or more)`);
        query.set('step', step);
      }
      const connection = await resolveConnection(context.env, process.cwd());
      const suffix = query.size > 0 ? `?${query.toString()}` : '';
      const response = await apiRequest(connection, 'GET', `/api/v1/runs/${runId}/logs${suffix}`);
      try {
        await pipeline(response.body, context.stdout, { end: false });
      } catch (error) {
        // The reader went away (`svc logs 42 | head`): that is how such a pipe ends, not an error.
        if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
      }
    });
  },
};

import { apiRequest, resolveConnection, type CommandDefinition } from '../../../core/kernel/cli/index.js';
import type { RunView } from '../run-view.js';
import { formatRun } from './format-run.js';
import { parseRunId, runCommand } from './run-command.js';

/** `svc status <RUN_ID> [--json]`: a run and its jobs, from GET /api/v1/runs/{run_id}. */
export const statusCommand: CommandDefinition = {
  name: 'status',
  description: 'show a run and its jobs (GET /api/v1/runs/<RUN_ID>)',
  arguments: [{ name: 'RUN_ID', description: 'the run id', required: true }],
  options: [{ flags: '--json', description: 'print the run as JSON (the API response)' }],
  run(args, options, context) {
    return runCommand('status', context, async () => {
      const runId = parseRunId(args[0]);
      const connection = await resolveConnection(context.env, process.cwd());
      const response = await apiRequest(connection, 'GET', `/api/v1/runs/${runId}`);
      const run = (await response.json()) as RunView;
      context.stdout.write(options['json'] === true ? `${JSON.stringify(run, null, 2)}\n` : formatRun(run, Date.now()));
    });
  },
};

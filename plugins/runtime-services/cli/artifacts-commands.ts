import { apiRequest, parsePositiveId, resolveConnection, runCommand, type CommandDefinition } from '../../../core/kernel/cli/index.js';
import type { ArtifactListView } from '../artifacts/artifact-view.js';
import { formatArtifacts } from './format-artifacts.js';

const parseRunId = (raw: string | undefined): number => parsePositiveId(raw, 'run id', 'svc artifacts list 42');

/** `svc artifacts list <RUN_ID> [--json]`: the run's artifacts, from GET /api/v1/runs/{run_id}/artifacts. */
export const artifactsListCommand: CommandDefinition = {
  name: 'artifacts list',
  description: "list a run's artifacts (GET /api/v1/runs/<RUN_ID>/artifacts)",
  arguments: [{ name: 'RUN_ID', description: 'the run id', required: true }],
  options: [{ flags: '--json', description: 'print the API response' }],
  run(args, options, context) {
    return runCommand('artifacts list', context, async () => {
      const runId = parseRunId(args[0]);
      const connection = await resolveConnection(context.env, process.cwd());
      const list = (await (await apiRequest(connection, 'GET', `/api/v1/runs/${runId}/artifacts`)).json()) as ArtifactListView;
      context.stdout.write(options['json'] === true ? `${JSON.stringify(list, null, 2)}\n` : formatArtifacts(runId, list.artifacts));
    });
  },
};

/** `svc artifacts download <RUN_ID> [--name <name>] [--dir <dir>]`: each artifact unpacked into `<dir>/<name>/`. */
export const artifactsDownloadCommand: CommandDefinition = {
  name: 'artifacts download',
  description: "download a run's artifacts, each unpacked into <dir>/<name>/ as download-artifact does",
  arguments: [{ name: 'RUN_ID', description: 'the run id', required: true }],
  options: [
    { flags: '--name <name>', description: 'only the artifact of this name (default: every artifact of the run)' },
    { flags: '--dir <dir>', description: 'where the artifacts go, each into a directory of its name', defaultValue: '.' },
  ],
  run(args, options, context) {
    return runCommand('artifacts download', context, async () => {
      const runId = parseRunId(args[0]);
      const name = options['name'];
      const dir = options['dir'];
      if (name !== undefined && (typeof name !== 'string' || name === '')) throw new Error('--name needs an artifact name (`svc artifacts list` shows them)');
      if (typeof dir !== 'string' || dir === '') throw new Error('--dir needs a directory');
      // The unpacker only when it runs: the other commands never load it.
      const { downloadArtifacts } = await import('./download-artifacts.js');
      await downloadArtifacts({ runId, dir, ...(name === undefined ? {} : { name }) }, context);
    });
  },
};

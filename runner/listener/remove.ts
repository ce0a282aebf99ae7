import { AgentsClient, HttpClient, RunnerAdminClient, VssConnection, requestTenantCredential, type RunnerIdentity } from '../client/index.js';
import { readRunnerSettings, type RunnerRoot, type RunnerSettings } from '../config/index.js';
import type { Terminal } from './terminal.js';

export interface RemoveOptions {
  readonly root: RunnerRoot;
  /** `--token`: the removal token (against svc, the system token). */
  readonly token: string;
  readonly identity: RunnerIdentity;
  readonly term: Terminal;
}

export interface RemoveResult {
  /** False when the server could not deregister the runner (the local files are deleted anyway). */
  readonly deregistered: boolean;
}

/**
 * `svc-runner remove --token` (ConfigurationManager.UnconfigureAsync, §1.11): runner-registration
 * (`remove`) → connectionData → the agent by name → `DELETE agents/0/<id>`, then `.runner`,
 * `.credentials` and `.credentials_rsaparams` are deleted; `_work/` and `externals/` stay. When
 * the server cannot deregister the runner, a warning says so and the files are deleted all the same.
 */
export async function removeRunner(options: RemoveOptions): Promise<RemoveResult> {
  const { root, term } = options;
  term.section('Runner removal');
  let deregistered = false;
  let settings: RunnerSettings | undefined;
  try {
    settings = await readRunnerSettings(root);
  } catch (error) {
    term.error(`Warning: ${(error as Error).message}; the runner cannot be removed from the server.`);
  }
  if (settings === undefined) {
    term.line(`Runner is not configured in ${root.dir}. Skipping removing runner from the server.`);
  } else {
    try {
      await deregister(options, settings);
      deregistered = true;
      term.line();
      term.success('Runner removed successfully');
    } catch (error) {
      term.error(
        `Warning: could not remove runner '${settings.agentName}' (id ${settings.agentId}) from ${settings.gitHubUrl ?? settings.serverUrl}: ${(error as Error).message}. ` +
          'Deleting the local configuration anyway; remove the runner on the server once it is reachable.',
      );
    }
  }
  const removed = await root.removeConfiguration();
  for (const name of ['.credentials', '.runner'] as const) {
    if (removed.includes(name)) term.success(`Removed ${name}`);
    else term.line(`Does not exist. Skipping Removing ${name}`);
  }
  term.line();
  return { deregistered };
}

async function deregister(options: RemoveOptions, settings: RunnerSettings): Promise<void> {
  const http = new HttpClient(options.identity);
  const url = new URL(settings.gitHubUrl ?? settings.serverUrl);
  if (settings.useRunnerAdminFlow === true) {
    // Configured through the runner-admin API (§1.7 step 4): DELETE {entity}/runners/<id>.
    await new RunnerAdminClient(http, url, options.token).deleteRunner(settings.agentId);
    return;
  }
  const tenant = await requestTenantCredential(http, url, options.token, 'remove');
  const agents = new AgentsClient(new VssConnection(http, tenant.tenantUrl, { kind: 'bearer', token: tenant.token }));
  const found = await agents.findByName(settings.agentName);
  if (found.length === 0) {
    options.term.line('Does not exist. Skipping Removing runner from the server');
    return;
  }
  await agents.remove(settings.agentId);
}

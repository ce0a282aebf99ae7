#!/usr/bin/env node
// svc-runner: the bundled runner's command line (SPEC "Command-line client"; runner/README.md).
import { hostname } from 'node:os';
import { Command, Option } from 'commander';
import { DEFAULT_NODE_DIST, NODE_DIST_VARIABLE } from '../core/node-dist/index.js';
import { OAuthTokenError, RunnerHttpError, RunnerNetworkError, RunnerProtocolError, runnerIdentity } from '../runner/client/index.js';
import { RunnerConfigError, RunnerRoot, readRunnerSettings, readRunnerVersions } from '../runner/config/index.js';
import { ConfigureError, NotConfiguredError, configureRunner, consoleTerminal, removeRunner, runListener } from '../runner/listener/index.js';

// Not core/kernel's readVersions: the kernel's index loads the server, which the listener must not hold (runner/config/package-versions.ts).
const versions = readRunnerVersions();
const identity = runnerIdentity(versions.runnerVersion, versions.packageVersion);
const term = consoleTerminal();

/** Errors worded for the person at the terminal print as they are; anything else is a bug and shows its stack. */
function fail(error: unknown): never {
  const known = [ConfigureError, NotConfiguredError, RunnerConfigError, RunnerHttpError, RunnerNetworkError, RunnerProtocolError, OAuthTokenError];
  const message = known.some((type) => error instanceof type) ? (error as Error).message : ((error as Error).stack ?? String(error));
  term.error(`Error: ${message}`);
  process.exit(1);
}

function root(option: string | undefined): RunnerRoot {
  return new RunnerRoot(option ?? process.cwd());
}

const rootOption = () => new Option('--runner-root <dir>', 'the runner root holding .runner, .credentials, _work/ and externals/ (default: the current directory)');

const program = new Command('svc-runner')
  .description(`svc-runner: the bundled runner (speaks the actions/runner ${versions.runnerVersion} protocol)`)
  .version(`${versions.packageVersion} (runner protocol ${versions.runnerVersion})`, '-V, --version', 'print the version');

program
  .command('configure')
  .description('register this runner with a control plane and write the runner root')
  .requiredOption('--url <url>', 'the scope the runner serves, e.g. http://127.0.0.1:9090/<owner>/<repo>')
  .requiredOption('--token <token>', 'registration token (against svc: the system token)')
  .option('--name <name>', 'runner name', hostname())
  .option('--labels <labels>', 'extra labels, comma separated')
  .option('--replace', 'replace a runner of the same name, and any configuration in the runner root')
  .option('--ephemeral', 'take one job, then deregister and delete the configuration')
  .option('--no-externals', `do not download the JavaScript runtimes (node 20 and 24) into externals/ (source: ${NODE_DIST_VARIABLE}, default ${DEFAULT_NODE_DIST})`)
  .option('--work <folder>', 'work folder, relative to the runner root', '_work')
  .addOption(rootOption())
  .action(async (options: { url: string; token: string; name: string; labels?: string; replace?: boolean; ephemeral?: boolean; externals: boolean; work: string; runnerRoot?: string }) => {
    try {
      await configureRunner({
        root: root(options.runnerRoot),
        url: options.url,
        token: options.token,
        name: options.name,
        labels: (options.labels ?? '').split(','),
        replace: options.replace === true,
        ephemeral: options.ephemeral === true,
        externals: options.externals,
        runtimes: [
          { name: 'node20', version: versions.node20Version },
          { name: 'node24', version: versions.node24Version },
        ],
        nodeDist: process.env[NODE_DIST_VARIABLE] || DEFAULT_NODE_DIST,
        work: options.work,
        identity,
        term,
      });
    } catch (error) {
      fail(error);
    }
  });

/**
 * `ACTIONS_RUNNER_INPUT_<OPTION>` in the environment stands for `--<option>`, as for the official
 * runner (how ARC and the built-in pool pass `--jitconfig`, whose private key must not be on a
 * command line). Read once and removed, so no job step inherits them.
 */
const INPUT_PREFIX = 'ACTIONS_RUNNER_INPUT_';
const environmentInputs = new Map<string, string>();
for (const [name, value] of Object.entries(process.env)) {
  if (!name.toUpperCase().startsWith(INPUT_PREFIX)) continue;
  if (value !== undefined) environmentInputs.set(name.slice(INPUT_PREFIX.length).toLowerCase(), value);
  delete process.env[name];
}

program
  .command('run')
  .description('listen for jobs and run them, one at a time')
  .option('--once', 'exit after the first job')
  .option('--jitconfig <blob>', `a just-in-time configuration (base64) holding the three root files; no configure needed (or ${INPUT_PREFIX}JITCONFIG in the environment, which keeps it off the command line)`)
  .addOption(rootOption())
  .action(async (options: { once?: boolean; jitconfig?: string; runnerRoot?: string }) => {
    const requested = new AbortController();
    const forced = new AbortController();
    const onSignal = () => {
      if (!requested.signal.aborted) {
        term.line('Exiting...');
        requested.abort();
      } else {
        forced.abort();
      }
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const jitConfig = options.jitconfig ?? environmentInputs.get('jitconfig');
    try {
      const code = await runListener({
        root: root(options.runnerRoot),
        once: options.once === true,
        ...(jitConfig === undefined ? {} : { jitConfig }),
        identity,
        term,
        stop: { requested: requested.signal, forced: forced.signal },
      });
      process.exit(code);
    } catch (error) {
      fail(error);
    }
  });

program
  .command('remove')
  .description('deregister the runner and delete .runner, .credentials and .credentials_rsaparams (_work/ and externals/ stay)')
  .requiredOption('--token <token>', 'removal token (against svc: the system token)')
  .addOption(rootOption())
  .action(async (options: { token: string; runnerRoot?: string }) => {
    try {
      await removeRunner({ root: root(options.runnerRoot), token: options.token, identity, term });
    } catch (error) {
      fail(error);
    }
  });

program
  .command('worker', { hidden: true })
  .description('run one job handed over on stdin by the listener (started by `run`)')
  .requiredOption('--runner-root <dir>', 'the runner root')
  .option('--prestarted', 'started ahead of the job: wait for it without a time limit, warming up meanwhile')
  .action(async (options: { runnerRoot: string; prestarted?: boolean }) => {
    // Imported lazily: `run`, `configure` and `remove` do not load the worker's code.
    const { runWorker } = await import('../runner/worker/index.js');
    const runnerRoot = new RunnerRoot(options.runnerRoot);
    const settings = await readRunnerSettings(runnerRoot).catch(() => undefined);
    const code = await runWorker({
      runnerRoot: runnerRoot.dir,
      runnerVersion: versions.runnerVersion,
      prestarted: options.prestarted === true,
      ...(settings === undefined ? {} : { runnerName: settings.agentName }),
    });
    process.exit(code);
  });

await program.parseAsync(process.argv);

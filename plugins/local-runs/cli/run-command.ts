import type { CommandDefinition } from '../../../core/kernel/cli/index.js';
import { EXIT_CODES_HELP } from './exit-codes.js';

/**
 * `svc run`: snapshots the repository's working tree, uploads it, runs one of its workflow
 * files on the server and follows the run to its end (run-local.ts). Exit codes: exit-codes.ts.
 * The declaration alone is loaded for `svc --help` and the other commands; the work, with the
 * packer and its archive libraries, only when `svc run` runs.
 */
export const runCommand: CommandDefinition = {
  name: 'run',
  description: `run a workflow of the working tree (uncommitted changes included) on the server and follow it; ${EXIT_CODES_HELP}`,
  // A variadic option's placeholder must end in a word character before `...` (commander's rule),
  // or a repeated flag keeps only its last value.
  options: [
    { flags: '-f, --file <workflow>', description: 'the workflow file (default: the only one in .github/workflows); relative to the current directory or the repository root' },
    { flags: '--job <ids...>', description: 'only these jobs and the jobs they need (repeatable, or a comma list)' },
    { flags: '--event <name>', description: 'the triggering event (default: push)' },
    { flags: '--base <branch>', description: 'the branch for branches: filters and the base of paths: changes' },
    { flags: '--payload <file>', description: 'a JSON file merged into the event payload (a local pull_request invents no pull-request fields)' },
    { flags: '--secret <NAME=VALUE|NAME...>', description: 'a secret for this run only (repeatable); NAME alone takes the environment variable NAME, else asks without echo on a terminal, so the value stays out of shell history (NAME=VALUE does not)' },
    { flags: '--secret-file <file>', description: 'secrets from a dotenv file (NAME=value, export, # comments, quotes, multi-line "..." values); --secret wins over it' },
    { flags: '--var <NAME=VALUE...>', description: 'a configuration variable (vars.NAME) for this run only (repeatable)' },
    { flags: '--var-file <file>', description: 'variables from a dotenv file; --var wins over it' },
    { flags: '--input <key=value...>', description: 'a workflow_dispatch input (repeatable); implies --event workflow_dispatch' },
    { flags: '--input-file <file>', description: 'workflow_dispatch inputs from a JSON object or dotenv file; --input wins over it' },
    { flags: '--json', description: 'print the run events (NDJSON) to stdout as received; the summary goes to stderr' },
    { flags: '--debug', description: 'pause a failed step for debugging (not implemented yet)' },
    { flags: '--preserve-on-failure', description: 'keep the job environment after a failure (not implemented yet)' },
    { flags: '--push', description: 'push the tested tree once the run succeeds (not implemented yet)' },
    { flags: '--create-pr', description: 'with --push, open a pull request (not implemented yet)' },
  ],
  async run(_args, options, context) {
    const { runLocal } = await import('./run-local.js');
    return runLocal(options, context, process.cwd());
  },
};


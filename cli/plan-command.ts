/**
 * `svc plan -f <file> [--json] [--event <name>] [--payload <file>] [--graph]`: the expanded job
 * graph of a workflow file, without running anything and without a server.
 *
 * - Repository root: the directory holding `.github/` when the file is in `.github/workflows/`
 *   (GitHub reads workflows only there, so that directory is the root by construction, even
 *   for a fixture inside another repository); else the nearest directory upwards with `.git`;
 *   else the file's own directory. Local `uses: ./.github/workflows/x.yml` resolve against it.
 * - Remote reusable workflows (`owner/repo/...@ref`) need the server (it fetches them from the
 *   forge): they are reported as errors at the calling job.
 * - Event: `--event` (default `push`) of the working tree's branch and commit (`refs/heads/main`
 *   and a zero commit outside a git repository), with the `--payload` JSON merged over it; a
 *   local `pull_request` invents no pull-request fields (spec).
 * - Exit 1 with every problem as `file:line:col: message` on stderr for an invalid workflow (or
 *   values that fail to evaluate). A workflow the event does not trigger is still planned:
 *   exit 0, with a note on stderr (and `trigger` in the JSON).
 */
import type { Command } from 'commander';
import type { PlanFlags } from './plan-workflow.js';

export function addPlanCommand(program: Command): void {
  program
    .command('plan')
    .description('show the expanded job graph of a workflow file, without running it')
    .requiredOption('-f, --file <workflow>', 'the workflow file')
    .option('--json', 'print the plan as JSON')
    .option('--event <name>', 'the event to plan for', 'push')
    .option('--payload <file>', 'a JSON file merged into the event payload')
    .option('--graph', 'draw the dependency graph with boxes and lines')
    .action(async (flags: PlanFlags) => {
      // The workflow parser is loaded only when planning: every other `svc` command starts without it.
      const { PlanFailure, runPlan } = await import('./plan-workflow.js');
      try {
        process.exitCode = await runPlan(flags);
      } catch (error) {
        if (!(error instanceof PlanFailure)) throw error;
        process.stderr.write(`svc plan: ${error.message}\n`);
        process.exitCode = 1;
      }
    });
}

/**
 * What every action handler shows before it runs (Handler.PrintActionDetails): `Post job
 * cleanup.` for a post stage; otherwise a group `Run <uses>` listing the non-empty inputs
 * (`with:`) and the step's environment (`env:`). Also the `github.action_*` variables a
 * downloaded action's processes get.
 */
import type { ActionOrigin } from '../actions/index.js';
import { referenceText } from './handler-registry.js';
import type { HandlerContext } from './handler-types.js';

export function printActionDetails(context: HandlerContext, inputs: Readonly<Record<string, string>>): void {
  const { log } = context;
  if (context.stage === 'post') {
    log.write('Post job cleanup.');
    return;
  }
  log.write(`##[group]Run ${referenceText(context.step.reference)}`);
  const shown = Object.entries(inputs).filter(([, value]) => value !== '');
  if (shown.length > 0) {
    log.write('with:');
    for (const [name, value] of shown) log.write(`  ${name}: ${value}`);
  }
  const env = Object.entries(context.environment);
  if (env.length > 0) {
    log.write('env:');
    for (const [name, value] of env) log.write(`  ${name}: ${value}`);
  }
  log.write('##[endgroup]');
}

/**
 * `GITHUB_ACTION_REPOSITORY` / `GITHUB_ACTION_REF` for a downloaded action (empty for a local
 * one), and `GITHUB_ACTION_PATH` (the runner sets it for the steps of composite actions; here
 * every action's own process gets its folder too, unless its composite already set one).
 */
export function actionPathEnvironment(context: HandlerContext, origin: ActionOrigin, directory: string | undefined): Record<string, string> {
  const env: Record<string, string> = {
    GITHUB_ACTION_REPOSITORY: origin.repository ?? '',
    GITHUB_ACTION_REF: origin.ref ?? '',
  };
  if (directory !== undefined && context.runtimeEnvironment['GITHUB_ACTION_PATH'] === undefined) env['GITHUB_ACTION_PATH'] = directory;
  return env;
}

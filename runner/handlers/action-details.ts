/**
 * What every action handler shows before it runs (Handler.PrintActionDetails): `Post job
 * cleanup.` for a post stage; otherwise a group `Run <uses>` listing the non-empty inputs
 * (`with:`) and the step's environment (`env:`). Also the `github.action_*` values of a step.
 */
import { referenceText } from './handler-registry.js';
import type { ActionReference, HandlerContext } from './handler-types.js';

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

/** `github.action_repository` and `github.action_ref` as the runner's ActionRunner sets them for a step. */
export interface ActionOriginContext {
  readonly action_repository: string;
  readonly action_ref: string;
}

/**
 * What a step's ActionRunner sets before it evaluates the step's inputs and runs it: a repository
 * action's `owner/repo` and ref; empty for a `run:` step, a local action (`./path`) and a
 * `docker://` image. The steps of a composite action start from their composite's values (their
 * `env:`, `if:` and display name see them), then each step sets its own.
 */
export function actionOriginContext(reference: ActionReference): ActionOriginContext {
  if (reference.kind !== 'repository' || reference.repositoryType.toLowerCase() === 'self') return { action_repository: '', action_ref: '' };
  return { action_repository: reference.name, action_ref: reference.ref };
}

/**
 * `GITHUB_ACTION_PATH` for an action's own process (the runner sets it for the steps of composite
 * actions; here every action's own process gets its folder too, unless its composite already set
 * one). `GITHUB_ACTION_REPOSITORY` / `GITHUB_ACTION_REF` come with the `github` context
 * (`runtimeEnvironment`, actionOriginContext).
 */
export function actionPathEnvironment(context: HandlerContext, directory: string | undefined): Record<string, string> {
  return directory !== undefined && context.runtimeEnvironment['GITHUB_ACTION_PATH'] === undefined ? { GITHUB_ACTION_PATH: directory } : {};
}

/**
 * An action's inputs as the runner hands them to its handler (ActionRunner): the step's `with:`
 * (already evaluated by the worker), a warning for each deprecated input the step sets, the
 * manifest's defaults for inputs the step leaves out (evaluated now: `${{ github.token }}`), and
 * one warning naming the inputs the action does not declare. Docker actions also take
 * `entryPoint` and `args`. Warnings are given once, not again in the post stage.
 */
import type { ManifestDefinition } from '../actions/index.js';
import { evaluateString, type TemplateScope } from './action-templates.js';
import type { HandlerContext } from './handler-types.js';

export function actionInputs(context: HandlerContext, definition: ManifestDefinition, options: { readonly container?: boolean } = {}): Record<string, string> {
  const inputs: Record<string, string> = { ...context.inputs };
  const warn = context.stage !== 'post';
  const given = Object.keys(inputs);
  const lower = new Set(given.map((name) => name.toLowerCase()));
  const declared = definition.manifest.inputs;
  if (warn) {
    for (const name of given) {
      const input = declared.find((candidate) => candidate.id.toLowerCase() === name.toLowerCase());
      if (input?.deprecationMessage !== undefined) context.log.warning(`Input '${name}' has been deprecated with message: ${input.deprecationMessage}`);
    }
  }
  const valid = [...(options.container === true ? ['entryPoint', 'args'] : []), ...declared.map((input) => input.id)];
  const scope: TemplateScope = { contexts: context.contexts, fileTable: definition.fileTable, workspace: context.directories.workspace };
  for (const input of declared) {
    if (lower.has(input.id.toLowerCase())) continue;
    inputs[input.id] = evaluateString(input.default, `inputs.${input.id}.default`, 'input default', scope);
  }
  if (warn) {
    const validLower = new Set(valid.map((name) => name.toLowerCase()));
    const unexpected = given.filter((name) => !validLower.has(name.toLowerCase()));
    if (unexpected.length > 0) context.log.warning(`Unexpected input(s) '${unexpected.join("', '")}', valid inputs are ['${[...new Set(valid)].join("', '")}']`);
  }
  return inputs;
}

/** `INPUT_<NAME>`: the name upper-cased, spaces as `_` (Handler.AddInputsToEnvironment). */
export function inputEnvironment(inputs: Readonly<Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.replaceAll(' ', '_').toUpperCase()}`] = value;
  return env;
}

/**
 * A step's name on its record (ActionRunner.GenerateDisplayName): the message's `displayName`,
 * else its `displayNameToken`, else `Run <first line of the script>`, `Run owner/repo@ref` or
 * `Run <image>`. Expressions are evaluated when the step starts; until then the record shows the
 * expression (`${{ matrix.name }}`), and an evaluation that fails keeps it (with a warning).
 */
import { TokenType, type TemplateToken } from '../../core/protocol/index.js';
import { firstLine, referenceText } from '../handlers/index.js';
import type { ActionStep } from './job-message/index.js';
import { evaluateDisplayName, tokenDisplay, type EvaluationScope } from './templates/evaluate-fields.js';

const PREFIX = 'Run ';

function scriptToken(step: ActionStep): TemplateToken | undefined {
  if (step.inputs?.type !== TokenType.Mapping) return undefined;
  const entry = step.inputs.entries.find((e) => e.key.type === TokenType.String && e.key.value.toLowerCase() === 'script');
  return entry?.value;
}

/** The token a name comes from, and the prefix it gets. */
function source(step: ActionStep): { readonly token: TemplateToken | undefined; readonly prefix: string } {
  if (step.displayNameToken !== undefined) return { token: step.displayNameToken, prefix: '' };
  switch (step.reference.kind) {
    case 'script':
      return { token: scriptToken(step), prefix: PREFIX };
    case 'repository':
      return { token: { type: TokenType.String, value: referenceText(step.reference) }, prefix: PREFIX };
    case 'container':
      return { token: { type: TokenType.String, value: step.reference.image }, prefix: PREFIX };
  }
}

function format(prefix: string, name: string): string {
  const line = firstLine(name);
  return line === '' ? '' : `${prefix}${line}`;
}

/** The name before the step runs; `final` when nothing is left to evaluate. */
export function initialDisplayName(step: ActionStep): { readonly name: string; readonly final: boolean } {
  if (step.displayName !== undefined && step.displayName !== '') return { name: step.displayName, final: true };
  const { token, prefix } = source(step);
  if (token === undefined) return { name: step.name, final: true };
  const literal = token.type === TokenType.String || token.type === TokenType.Boolean || token.type === TokenType.Number;
  const name = format(prefix, tokenDisplay(token));
  return { name: name === '' ? step.name : name, final: literal };
}

/** The name evaluated at step start; a failure is reported through `warn` and answers undefined. */
export function evaluatedDisplayName(step: ActionStep, scope: EvaluationScope, warn: (message: string) => void): string | undefined {
  const { token, prefix } = source(step);
  if (token === undefined) return undefined;
  try {
    const name = format(prefix, evaluateDisplayName(token, scope));
    return name === '' ? undefined : name;
  } catch (error) {
    warn(`Encountered an error when evaluating display name ${tokenDisplay(token)}. ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

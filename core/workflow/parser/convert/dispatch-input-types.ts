/**
 * Fix "input-types": GitHub's converted workflow lists the declared type of each
 * `workflow_dispatch` input (`string` when undeclared); the dispatch API needs it to type the
 * values it receives. The TypeScript converter does not produce it.
 */
import { isMapping, isString } from '@actions/workflow-parser/templates/tokens/type-guards';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/index';
import { TokenType } from '@actions/workflow-parser/templates/tokens/types';

export function dispatchInputTypes(on: TemplateToken): Record<string, string> {
  const types: Record<string, string> = {};
  if (!isMapping(on)) return types;
  const dispatch = on.find('workflow_dispatch');
  if (dispatch === undefined || !isMapping(dispatch)) return types;
  const inputs = dispatch.find('inputs');
  if (inputs === undefined || !isMapping(inputs)) return types;
  const seen = new Set<string>();
  for (const input of inputs) {
    const name = input.key.toString();
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    types[name] = input.value.templateTokenType === TokenType.Null ? 'string' : declaredType(input.value);
  }
  return types;
}

function declaredType(definition: TemplateToken): string {
  if (!isMapping(definition)) return 'string';
  for (const pair of definition) {
    if (pair.key.toString().toLowerCase() === 'type' && isString(pair.value)) return pair.value.value;
  }
  return 'string';
}

/**
 * Fix "matrix-vectors": GitHub refuses a matrix vector without values (`os: []`) and a matrix
 * with no vector at all (only `exclude`), at parse time. The TypeScript converter keeps the
 * strategy unchecked. Values containing expressions are left to run time, as GitHub does.
 */
import { isMapping, isSequence } from '@actions/workflow-parser/templates/tokens/type-guards';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/index';
import type { ParseContext } from '../parse-context.js';
import { siteOf } from './error-site.js';

export function validateMatrix(context: ParseContext, strategy: TemplateToken): void {
  if (!isMapping(strategy)) return;
  for (const pair of strategy) {
    if (pair.key.toString() !== 'matrix' || pair.key.isExpression || !isMapping(pair.value)) continue;
    const matrix = pair.value;
    let hasVector = false;
    let hasInclude = false;
    for (const entry of matrix) {
      if (entry.key.isExpression) {
        hasVector = true;
        continue;
      }
      const name = entry.key.toString();
      if (name === 'exclude') continue;
      if (name === 'include') {
        hasInclude ||= hasExpression(entry.value) || (isSequence(entry.value) && entry.value.count > 0);
        continue;
      }
      hasVector = true;
      if (!hasExpression(entry.value) && isSequence(entry.value) && entry.value.count === 0) {
        context.collector.addInDocumentOrder(siteOf(context, entry.value), `Matrix vector '${name}' does not contain any values`);
      }
    }
    if (!hasVector && !hasInclude) {
      context.collector.addInDocumentOrder(siteOf(context, matrix), 'Matrix must define at least one vector');
    }
  }
}

function hasExpression(token: TemplateToken): boolean {
  if (token.isExpression) return true;
  if (isSequence(token)) return [...token].some(hasExpression);
  if (isMapping(token)) return [...token].some((pair) => pair.key.isExpression || hasExpression(pair.value));
  return false;
}

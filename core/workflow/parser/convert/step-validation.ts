/**
 * Step checks GitHub's converter makes and the TypeScript one does not.
 * - fix "step-id-case-insensitive": step ids are unique ignoring case (`step1` and `STEP1`
 *   collide); the TypeScript converter only catches exact repeats, which it reports itself.
 * - fix "step-uses-syntax": an action reference must be `{org}/{repo}[/path]@ref` unless it is
 *   `docker://...` or a local path (`./`, `.\`, `$/`).
 */
import { isMapping, isSequence, isString } from '@actions/workflow-parser/templates/tokens/type-guards';
import type { StringToken, TemplateToken } from '@actions/workflow-parser/templates/tokens/index';
import type { ParseContext } from '../parse-context.js';
import { siteOf } from './error-site.js';

const MAX_ID_LENGTH = 100;

export function validateSteps(context: ParseContext, steps: TemplateToken): void {
  if (!isSequence(steps)) return;
  const known = new Map<string, Set<string>>();
  for (const step of steps) {
    if (!isMapping(step)) continue;
    for (const pair of step) {
      const key = pair.key.toString();
      if (key === 'id' && isString(pair.value)) checkId(context, pair.value, known);
      if (key === 'uses' && isString(pair.value)) checkUses(context, pair.value);
    }
  }
}

function checkId(context: ParseContext, id: StringToken, known: Map<string, Set<string>>): void {
  const value = id.value;
  if (value === '' || !isValidId(value) || value.startsWith('__')) return; // reported by the parser
  const folded = value.toLowerCase();
  const spellings = known.get(folded);
  if (spellings === undefined) {
    known.set(folded, new Set([value]));
    return;
  }
  if (spellings.has(value)) return; // an exact repeat: the parser reported it
  spellings.add(value);
  context.collector.addInDocumentOrder(
    siteOf(context, id),
    `The identifier '${value}' may not be used more than once within the same scope.`,
  );
}

function isValidId(value: string): boolean {
  return value.length < MAX_ID_LENGTH && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(value);
}

function checkUses(context: ParseContext, uses: StringToken): void {
  const value = uses.value;
  if (value.startsWith('docker://') || value.startsWith('./') || value.startsWith('.\\') || value.startsWith('$/')) return;
  const parts = value.split('@');
  const path = (parts[0] ?? '').split(/[/\\]/).filter((segment) => segment !== '');
  if (parts.length === 2 && path.length >= 2 && (parts[1] ?? '') !== '') return;
  context.collector.addInDocumentOrder(siteOf(context, uses), `Expected format {org}/{repo}[/path]@ref. Actual '${value}'`);
}

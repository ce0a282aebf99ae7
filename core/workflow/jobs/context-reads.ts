/**
 * Which of the contexts that can be unknown at plan time (`needs`, `matrix`, `strategy`,
 * `inputs`) the expressions of a token tree read. A field that reads one of them waits; any
 * other field is evaluated now, with placeholders for the unknown contexts it does not read.
 *
 * Each expression is parsed once per name with that name left out of the allowed names: the
 * parse fails with `unrecognized_named_value` exactly when the expression reads it. (Every other
 * name is allowed, so no other name can fail; the parser has already reported names a field
 * does not allow.) Results are cached per token tree, which the plan reuses for every instance.
 */
import { isBasicExpression, isMapping, isSequence } from '@actions/workflow-parser/templates/tokens/type-guards';
import type { TemplateToken } from '../parser/index.js';
import { allowedNames, ExpressionError, parseExpression, type AllowedNames } from '../expressions/index.js';

/** The contexts that may be unknown while planning. */
export const DEFERRABLE_CONTEXTS = ['needs', 'matrix', 'strategy', 'inputs'] as const;
export type DeferrableContext = (typeof DEFERRABLE_CONTEXTS)[number];

const ALL_CONTEXTS = ['github', 'env', 'vars', 'secrets', 'inputs', 'matrix', 'strategy', 'needs', 'steps', 'job', 'jobs', 'runner'];
const SPECIAL_FUNCTIONS = ['always(0,0)', 'cancelled(0,0)', 'failure(0,MAX)', 'success(0,MAX)', 'hashFiles(1,255)'];

const withoutName = new Map<DeferrableContext, AllowedNames>(
  DEFERRABLE_CONTEXTS.map((name) => [name, allowedNames([...ALL_CONTEXTS.filter((c) => c !== name), ...SPECIAL_FUNCTIONS])]),
);

const treeCache = new WeakMap<TemplateToken, ReadonlySet<DeferrableContext>>();
const textCache = new Map<string, ReadonlySet<DeferrableContext>>();
const TEXT_CACHE_LIMIT = 4096;

/** The deferrable contexts the token tree's expressions read. */
export function contextsRead(token: TemplateToken): ReadonlySet<DeferrableContext> {
  const cached = treeCache.get(token);
  if (cached !== undefined) return cached;
  const names = new Set<DeferrableContext>();
  for (const text of expressionTexts(token)) for (const name of readsOf(text)) names.add(name);
  treeCache.set(token, names);
  return names;
}

/** The names in `unknown` that the token reads, in DEFERRABLE_CONTEXTS order. */
export function unknownContextsRead(token: TemplateToken | undefined, unknown: ReadonlySet<string>): readonly string[] {
  if (token === undefined || unknown.size === 0) return [];
  const read = contextsRead(token);
  return DEFERRABLE_CONTEXTS.filter((name) => unknown.has(name) && read.has(name));
}

function readsOf(text: string): ReadonlySet<DeferrableContext> {
  const cached = textCache.get(text);
  if (cached !== undefined) return cached;
  const names = new Set<DeferrableContext>();
  for (const name of DEFERRABLE_CONTEXTS) {
    // A cheap filter first: an expression that does not contain the word cannot read it.
    if (!text.toLowerCase().includes(name)) continue;
    try {
      parseExpression(text, { allowed: withoutName.get(name) as AllowedNames });
    } catch (error) {
      if (error instanceof ExpressionError && error.code === 'unrecognized_named_value') names.add(name);
    }
  }
  if (textCache.size >= TEXT_CACHE_LIMIT) textCache.clear();
  textCache.set(text, names);
  return names;
}

/** The text of every expression in the tree (values and keys; an `insert` key has none). */
function expressionTexts(token: TemplateToken): string[] {
  const texts: string[] = [];
  const visit = (node: TemplateToken): void => {
    if (isBasicExpression(node)) texts.push(node.expression);
    else if (isSequence(node)) for (const item of node) visit(item);
    else if (isMapping(node)) {
      for (const pair of node) {
        visit(pair.key);
        visit(pair.value);
      }
    }
  };
  visit(token);
  return texts;
}

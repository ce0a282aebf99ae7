/**
 * Walking the package's expression tree: finding function calls (status functions) and
 * replacing literal values with the runner-faithful data classes once, at parse time.
 */
import { data, type Expr } from '@actions/expressions';
import {
  Binary,
  ContextAccess,
  FunctionCall,
  Grouping,
  IndexAccess,
  Literal,
  Logical,
  Unary,
} from '@actions/expressions/ast';
import { TokenType } from '@actions/expressions/lexer';
import { FALSE, NULL, RunnerNumber, RunnerString, TRUE } from './data.js';

/** Visits every node, parents before children, until `visit` returns true. */
export function someNode(tree: Expr | undefined, visit: (node: Expr) => boolean): boolean {
  if (tree === undefined) return false;
  if (visit(tree)) return true;
  if (tree instanceof Unary) return someNode(tree.expr, visit);
  if (tree instanceof Binary) return someNode(tree.left, visit) || someNode(tree.right, visit);
  if (tree instanceof Logical || tree instanceof FunctionCall) {
    return tree.args.some((arg) => someNode(arg, visit));
  }
  if (tree instanceof Grouping) return someNode(tree.group, visit);
  if (tree instanceof IndexAccess) return someNode(tree.expr, visit) || someNode(tree.index, visit);
  return false; // Literal, ContextAccess, Star
}

/** Lower-cased names of all functions the tree calls. */
export function calledFunctions(tree: Expr | undefined): Set<string> {
  const names = new Set<string>();
  someNode(tree, (node) => {
    if (node instanceof FunctionCall) names.add(node.functionName.lexeme.toLowerCase());
    return false;
  });
  return names;
}

/** Lower-cased names of all contexts the tree reads. */
export function readContexts(tree: Expr | undefined): Set<string> {
  const names = new Set<string>();
  someNode(tree, (node) => {
    if (node instanceof ContextAccess) names.add(node.name.lexeme.toLowerCase());
    return false;
  });
  return names;
}

/**
 * Swaps the package's literal data for ours: numbers format like the runner, strings parse to
 * numbers like the runner, and a string literal unescapes every `''` (the package's lexer
 * unescapes only the first one).
 */
export function adoptLiterals(tree: Expr | undefined): void {
  someNode(tree, (node) => {
    if (node instanceof Literal) node.literal = runnerLiteral(node);
    return false;
  });
}

function runnerLiteral(node: Literal): data.ExpressionData {
  const value = node.literal;
  switch (value.kind) {
    case data.Kind.Number:
      return new RunnerNumber(value.value);
    case data.Kind.String:
      return new RunnerString(
        node.token.type === TokenType.STRING ? unquote(node.token.lexeme) : value.value,
      );
    case data.Kind.Boolean:
      return value.value ? TRUE : FALSE;
    case data.Kind.Null:
      return NULL;
    default:
      return value;
  }
}

function unquote(lexeme: string): string {
  return lexeme.slice(1, -1).replaceAll("''", "'");
}

/**
 * Parsing with the package's lexer and parser, the runner's limits and error texts, and a
 * bounded LRU cache of trees keyed by the allowed names and the text.
 */
import { ExpressionError as PackageExpressionError, Lexer, Parser } from '@actions/expressions';
import type { Expr } from '@actions/expressions';
import type { FunctionInfo } from '@actions/expressions/funcs/info';
import type { Token } from '@actions/expressions/lexer';
import { TokenType } from '@actions/expressions/lexer';
import { ANY_NAMES, type AllowedNamesOption } from './allowed-names.js';
import { ExpressionError } from './errors.js';
import { MAX_EXPRESSION_LENGTH } from './limits.js';
import { LruCache } from './lru-cache.js';
import { parseNumber } from './number-format.js';
import { invalidNumberError, lexingError, parsingError } from './parse-errors.js';
import { adoptLiterals } from './tree.js';

const DEFAULT_CACHE_CAPACITY = 1024;

/** A parsed expression; reuse it to evaluate the same text many times. */
export class ParsedExpression {
  readonly text: string;
  readonly #tree: Expr | undefined;

  constructor(text: string, tree: Expr | undefined) {
    this.text = text;
    this.#tree = tree;
  }

  /** True for an empty (or blank) expression, which evaluates to null. */
  get isEmpty(): boolean {
    return this.#tree === undefined;
  }

  /** The package tree; for this folder only (index.ts does not export it). */
  static treeOf(parsed: ParsedExpression): Expr | undefined {
    return parsed.#tree;
  }
}

export type ParseCache = LruCache<string, ParsedExpression>;

export function createParseCache(capacity = DEFAULT_CACHE_CAPACITY): ParseCache {
  return new LruCache(capacity);
}

/** The process-wide cache used when a caller does not bring its own. */
export const defaultParseCache: ParseCache = createParseCache();

export interface ParseOptions {
  /** Names the expression may use; default: any name (a syntax check only). */
  readonly allowed?: AllowedNamesOption;
  readonly cache?: ParseCache;
}

export function parseExpression(text: string, options: ParseOptions = {}): ParsedExpression {
  const allowed = options.allowed ?? ANY_NAMES;
  const namesKey = allowed === ANY_NAMES ? '*' : allowed.key;
  if (text.length > MAX_EXPRESSION_LENGTH) {
    throw new ExpressionError(
      'parsing',
      'max_length',
      `Exceeded max expression length ${MAX_EXPRESSION_LENGTH}`,
      text,
    );
  }
  const cache = options.cache ?? defaultParseCache;
  const key = `${namesKey}\u0000${text}`;
  const cached = cache.get(key);
  if (cached) return cached;

  const tokens = lex(text);
  let contexts: readonly string[];
  let functions: FunctionInfo[];
  if (allowed === ANY_NAMES) {
    ({ contexts, functions } = namesUsed(tokens));
  } else {
    contexts = allowed.contexts;
    functions = allowed.functions.map((f) => ({ ...f }));
  }
  let tree: Expr | undefined;
  try {
    // parse() returns undefined when there are no tokens, despite its declared type.
    tree = new Parser(tokens, [...contexts], functions).parse() as Expr | undefined;
  } catch (error) {
    if (error instanceof PackageExpressionError) throw parsingError(error, text, tokens);
    throw error;
  }
  adoptLiterals(tree);
  const parsed = new ParsedExpression(text, tree);
  cache.set(key, parsed);
  return parsed;
}

function lex(text: string): Token[] {
  let tokens: Token[];
  try {
    tokens = new Lexer(text).lex().tokens;
  } catch (error) {
    // The package's lexer throws plain errors already worded like the runner's.
    if (error instanceof Error) throw lexingError(error, text);
    throw error;
  }
  checkNumbers(tokens, text);
  return tokens;
}

/**
 * The package reads number literals with JavaScript's `Number()`, which accepts forms the runner
 * rejects (`0b1`, `0X1F`) and reads hex differently; re-read them with the runner's rules.
 */
function checkNumbers(tokens: Token[], text: string): void {
  for (const token of tokens) {
    if (token.type !== TokenType.NUMBER || token.lexeme === 'NaN') continue;
    const value = parseNumber(token.lexeme);
    if (Number.isNaN(value)) {
      throw invalidNumberError(token, tokens, text);
    }
    token.value = value;
  }
}

/** For syntax-only parsing: every identifier becomes an allowed context or function. */
function namesUsed(tokens: readonly Token[]): { contexts: string[]; functions: FunctionInfo[] } {
  const contexts: string[] = [];
  const functions: FunctionInfo[] = [];
  tokens.forEach((token, index) => {
    if (token.type !== TokenType.IDENTIFIER || tokens[index - 1]?.type === TokenType.DOT) return;
    if (tokens[index + 1]?.type === TokenType.LEFT_PAREN) {
      functions.push({ name: token.lexeme, minArgs: 0, maxArgs: Number.MAX_SAFE_INTEGER });
    } else {
      contexts.push(token.lexeme);
    }
  });
  return { contexts, functions };
}

import { TokenType } from './token-type.js';

/**
 * Where a token came from: `file` is the 1-based index into the job message's `fileTable`.
 * Each part is independent (the runner writes whichever is set).
 */
export interface TokenPosition {
  readonly file?: number;
  readonly line?: number;
  readonly col?: number;
}

export interface StringToken extends TokenPosition {
  readonly type: typeof TokenType.String;
  readonly value: string;
}

export interface SequenceToken extends TokenPosition {
  readonly type: typeof TokenType.Sequence;
  readonly items: readonly TemplateToken[];
}

/** One `key: value` pair of a mapping. Keys are scalars, expressions included. */
export interface MappingEntry {
  readonly key: ScalarToken;
  readonly value: TemplateToken;
}

/** A mapping keeps its entries in order; duplicate keys are representable, as in the runner. */
export interface MappingToken extends TokenPosition {
  readonly type: typeof TokenType.Mapping;
  readonly entries: readonly MappingEntry[];
}

/** `${{ expression }}`: the text between the braces (mixed strings arrive as `format(...)`). */
export interface BasicExpressionToken extends TokenPosition {
  readonly type: typeof TokenType.BasicExpression;
  readonly expression: string;
}

/** The mapping key `${{ insert }}`. The runner knows no other directive. */
export interface InsertExpressionToken extends TokenPosition {
  readonly type: typeof TokenType.InsertExpression;
  readonly directive: 'insert';
}

export interface BooleanToken extends TokenPosition {
  readonly type: typeof TokenType.Boolean;
  readonly value: boolean;
}

/** A double, as in the runner. */
export interface NumberToken extends TokenPosition {
  readonly type: typeof TokenType.Number;
  readonly value: number;
}

export interface NullToken extends TokenPosition {
  readonly type: typeof TokenType.Null;
}

export type LiteralToken = StringToken | BooleanToken | NumberToken | NullToken;
export type ExpressionToken = BasicExpressionToken | InsertExpressionToken;
export type ScalarToken = LiteralToken | ExpressionToken;
export type TemplateToken = ScalarToken | SequenceToken | MappingToken;

/** The position parts that are set, so optional members stay absent (never `undefined`). */
export function positionOf(source: TokenPosition | undefined): TokenPosition {
  if (source === undefined) return {};
  return {
    ...(source.file === undefined ? {} : { file: source.file }),
    ...(source.line === undefined ? {} : { line: source.line }),
    ...(source.col === undefined ? {} : { col: source.col }),
  };
}

export function hasPosition(token: TokenPosition): boolean {
  return token.file !== undefined || token.line !== undefined || token.col !== undefined;
}

export function stringToken(value: string, position?: TokenPosition): StringToken {
  return { type: TokenType.String, value, ...positionOf(position) };
}

export function sequenceToken(items: readonly TemplateToken[], position?: TokenPosition): SequenceToken {
  return { type: TokenType.Sequence, items, ...positionOf(position) };
}

export function mappingToken(entries: readonly MappingEntry[], position?: TokenPosition): MappingToken {
  return { type: TokenType.Mapping, entries, ...positionOf(position) };
}

export function basicExpressionToken(expression: string, position?: TokenPosition): BasicExpressionToken {
  return { type: TokenType.BasicExpression, expression, ...positionOf(position) };
}

export function insertExpressionToken(position?: TokenPosition): InsertExpressionToken {
  return { type: TokenType.InsertExpression, directive: 'insert', ...positionOf(position) };
}

export function booleanToken(value: boolean, position?: TokenPosition): BooleanToken {
  return { type: TokenType.Boolean, value, ...positionOf(position) };
}

export function numberToken(value: number, position?: TokenPosition): NumberToken {
  return { type: TokenType.Number, value, ...positionOf(position) };
}

export function nullToken(position?: TokenPosition): NullToken {
  return { type: TokenType.Null, ...positionOf(position) };
}

export function isScalarToken(token: TemplateToken): token is ScalarToken {
  return token.type !== TokenType.Sequence && token.type !== TokenType.Mapping;
}

export function isLiteralToken(token: TemplateToken): token is LiteralToken {
  return (
    token.type === TokenType.String ||
    token.type === TokenType.Boolean ||
    token.type === TokenType.Number ||
    token.type === TokenType.Null
  );
}

export function isExpressionToken(token: TemplateToken): token is ExpressionToken {
  return token.type === TokenType.BasicExpression || token.type === TokenType.InsertExpression;
}

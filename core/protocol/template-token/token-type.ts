/** The runner's numeric TemplateToken type codes (the `type` member on the wire). */
export const TokenType = {
  String: 0,
  Sequence: 1,
  Mapping: 2,
  BasicExpression: 3,
  InsertExpression: 4,
  Boolean: 5,
  Number: 6,
  Null: 7,
} as const;

export type TokenTypeCode = (typeof TokenType)[keyof typeof TokenType];

const CODES: ReadonlySet<number> = new Set(Object.values(TokenType));

export function isTokenTypeCode(code: number): code is TokenTypeCode {
  return CODES.has(code);
}

import type { EncodeOptions, JsonObject, JsonValue, WireStyle } from '../wire/index.js';
import { wireNumber } from '../wire/index.js';
import type { TemplateToken, TokenPosition } from './template-token.js';
import { hasPosition } from './template-token.js';
import { TokenType } from './token-type.js';

/**
 * Writes a TemplateToken as the runner's TemplateTokenJsonConverter does: members in the order
 * `type`, `file`, `line`, `col`, payload; a literal without position as a bare JSON scalar (in the
 * `github` style only booleans, numbers and null; strings stay objects); `lit`, `bool`, `num` and
 * `directive` always written in object form; `expr`, `seq` and `map` only when non-empty.
 * Non-finite numbers become the strings Newtonsoft writes for them ("NaN", "Infinity",
 * "-Infinity"), as JSON has no spelling for them.
 */
export function encodeTemplateToken(token: TemplateToken, options: EncodeOptions = {}): JsonValue {
  return encode(token, options.style ?? 'runner');
}

function encode(token: TemplateToken, style: WireStyle): JsonValue {
  const positioned = hasPosition(token);
  switch (token.type) {
    case TokenType.Null:
      return positioned ? head(token) : null;
    case TokenType.Boolean:
      return positioned ? { ...head(token), bool: token.value } : token.value;
    case TokenType.Number:
      return positioned ? { ...head(token), num: wireNumber(token.value) } : wireNumber(token.value);
    case TokenType.String:
      return positioned || style === 'github' ? { ...head(token), lit: token.value } : token.value;
    case TokenType.BasicExpression:
      return token.expression === '' ? head(token) : { ...head(token), expr: token.expression };
    case TokenType.InsertExpression:
      return { ...head(token), directive: token.directive };
    case TokenType.Sequence:
      return token.items.length === 0
        ? head(token)
        : { ...head(token), seq: token.items.map((item) => encode(item, style)) };
    case TokenType.Mapping: {
      if (token.entries.length === 0) return head(token);
      // The runner's own serializer settings camel-case KeyValuePair members; github.com sends them capitalised.
      const [keyName, valueName] = style === 'github' ? ['Key', 'Value'] : ['key', 'value'];
      const map = token.entries.map((entry) => ({
        [keyName]: encode(entry.key, style),
        [valueName]: encode(entry.value, style),
      }));
      return { ...head(token), map };
    }
  }
}

function head(token: TokenPosition & { readonly type: number }): JsonObject {
  return {
    type: token.type,
    ...(token.file === undefined ? {} : { file: token.file }),
    ...(token.line === undefined ? {} : { line: token.line }),
    ...(token.col === undefined ? {} : { col: token.col }),
  };
}

import type { DecodeOptions } from '../wire/index.js';
import {
  MAX_WIRE_DEPTH,
  WireFormatError,
  describeValue,
  invalid,
  isJsonObject,
  readArray,
  readBoolean,
  readMember,
  readNumber,
  readOptionalInt32,
  readString,
  readTypeCode,
} from '../wire/index.js';
import type { MappingEntry, TemplateToken, TokenPosition } from './template-token.js';
import {
  basicExpressionToken,
  booleanToken,
  insertExpressionToken,
  isScalarToken,
  mappingToken,
  nullToken,
  numberToken,
  sequenceToken,
  stringToken,
} from './template-token.js';
import { TokenType } from './token-type.js';

/**
 * Reads a TemplateToken from parsed JSON the way the runner's TemplateTokenJsonConverter does:
 * bare JSON scalars are position-less literals; an object without `type` is a string read from
 * `lit`; member names match case-insensitively (`Key`/`key`, `LIT`); absent `lit`/`expr` read as
 * "", absent `bool` as false, absent `num` as 0; `directive` is not read (the runner has only
 * `insert`).
 *
 * Where the runner would silently drop the value (an unknown or non-integer `type`, a JSON array)
 * or fail later (a non-scalar mapping key, an entry without key or value, a member of the wrong
 * JSON type), this throws a WireFormatError instead.
 */
export function decodeTemplateToken(json: unknown, options: DecodeOptions = {}): TemplateToken {
  return decode(json, options.path ?? '$', 0);
}

function decode(json: unknown, path: string, depth: number): TemplateToken {
  if (depth > MAX_WIRE_DEPTH) {
    throw new WireFormatError('too_deep', path, `template tokens nested deeper than ${MAX_WIRE_DEPTH} levels`);
  }
  switch (typeof json) {
    case 'string':
      return stringToken(json);
    case 'boolean':
      return booleanToken(json);
    case 'number':
      return numberToken(json);
    default:
      break;
  }
  if (json === null) return nullToken();
  if (!isJsonObject(json)) throw invalid(path, 'a template token (a JSON scalar or object)', json);

  const code = readTypeCode(json, 'type', path) ?? TokenType.String;
  const position = readPosition(json, path);
  switch (code) {
    case TokenType.String:
      return stringToken(readString(json, 'lit', path), position);
    case TokenType.Sequence:
      return sequenceToken(
        readArray(json, 'seq', path).map((item, i) => decode(item, `${path}.seq[${i}]`, depth + 1)),
        position,
      );
    case TokenType.Mapping:
      return mappingToken(
        readArray(json, 'map', path).map((entry, i) => decodeEntry(entry, `${path}.map[${i}]`, depth + 1)),
        position,
      );
    case TokenType.BasicExpression:
      return basicExpressionToken(readString(json, 'expr', path), position);
    case TokenType.InsertExpression:
      return insertExpressionToken(position);
    case TokenType.Boolean:
      return booleanToken(readBoolean(json, 'bool', path), position);
    case TokenType.Number:
      return numberToken(readNumber(json, 'num', path), position);
    case TokenType.Null:
      return nullToken(position);
    default:
      throw new WireFormatError('unknown_type', `${path}.type`, `unknown template token type ${code}`);
  }
}

function readPosition(json: Readonly<Record<string, unknown>>, path: string): TokenPosition {
  const file = readOptionalInt32(json, 'file', path);
  const line = readOptionalInt32(json, 'line', path);
  const col = readOptionalInt32(json, 'col', path);
  return {
    ...(file === undefined ? {} : { file }),
    ...(line === undefined ? {} : { line }),
    ...(col === undefined ? {} : { col }),
  };
}

function decodeEntry(json: unknown, path: string, depth: number): MappingEntry {
  if (!isJsonObject(json)) throw invalid(path, 'a mapping entry object with Key and Value', json);
  const rawKey = readMember(json, 'key');
  const rawValue = readMember(json, 'value');
  if (rawKey === undefined) throw new WireFormatError('invalid_value', path, 'mapping entry without Key');
  if (rawValue === undefined) throw new WireFormatError('invalid_value', path, 'mapping entry without Value');
  const key = decode(rawKey, `${path}.Key`, depth + 1);
  if (!isScalarToken(key)) {
    throw new WireFormatError('invalid_value', `${path}.Key`, `a mapping key must be a scalar token, got ${describeValue(rawKey)}`);
  }
  return { key, value: decode(rawValue, `${path}.Value`, depth + 1) };
}

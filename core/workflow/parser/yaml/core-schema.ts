/**
 * Fix "yaml-core-schema": scalars are typed as GitHub's reader types them (YAML 1.2 core schema,
 * its own way), not as the `yaml` package does:
 * - an explicit tag decides: `!!str` always a string; `!!bool`, `!!int`, `!!float`, `!!null` only
 *   on plain scalars and only for a matching value (else an error naming value, line and column);
 *   any other tag (`!!timestamp`, `!custom`) is an error;
 * - plain scalars: null (`~`, `null`, `Null`, `NULL`, empty), booleans (`true`/`True`/`TRUE`, ...),
 *   integers (decimal, `0x` and `0o` as 32-bit), floats (incl. `.inf`, `.nan`); anything else is a
 *   string, as is every quoted or block scalar.
 * Huge numbers become ±Infinity (as .NET parses them) instead of strings.
 */
import {
  BooleanToken,
  NullToken,
  StringToken,
} from '@actions/workflow-parser/templates/tokens/index';
import type { LiteralToken } from '@actions/workflow-parser/templates/tokens/index';
import type { TokenRange } from '@actions/workflow-parser/templates/tokens/token-range';
import { DotNetNumberToken } from './dotnet-number-token.js';

export type ScalarStyle = 'Plain' | 'SingleQuoted' | 'DoubleQuoted' | 'Literal' | 'Folded';

export interface ScalarNode {
  readonly value: string;
  readonly style: ScalarStyle;
  readonly tag: string | undefined;
  /** Start of the node, tag and anchor included (GitHub's reported position). */
  readonly line: number;
  readonly column: number;
  readonly range: TokenRange;
  readonly source: string | undefined;
  readonly blockScalarHeader: string | undefined;
}

const TAG = 'tag:yaml.org,2002:';
const STRING_TAG = `${TAG}str`;

export function toLiteral(fileId: number, node: ScalarNode): LiteralToken {
  const { range } = node;
  if (node.tag !== undefined && node.tag !== '') {
    if (node.tag === STRING_TAG) return stringToken(fileId, node);
    if (node.style !== 'Plain') {
      throw new Error(
        `The scalar style '${node.style}' on line ${node.line} and column ${node.column} is not valid with the tag '${node.tag}'`,
      );
    }
    const parsed = parseTagged(fileId, node);
    if (parsed === undefined) {
      throw new Error(`The value '${node.value}' on line ${node.line} and column ${node.column} is invalid for the type '${node.tag}'`);
    }
    return parsed;
  }
  if (node.style !== 'Plain') return stringToken(fileId, node);
  return (
    matchNull(fileId, range, node.value) ??
    matchBoolean(fileId, range, node.value) ??
    matchInteger(fileId, node) ??
    matchFloat(fileId, range, node.value) ??
    stringToken(fileId, node)
  );
}

function parseTagged(fileId: number, node: ScalarNode): LiteralToken | undefined {
  switch (node.tag) {
    case `${TAG}bool`:
      return matchBoolean(fileId, node.range, node.value);
    case `${TAG}float`:
      return matchFloat(fileId, node.range, node.value);
    case `${TAG}int`:
      return matchInteger(fileId, node);
    case `${TAG}null`:
      return matchNull(fileId, node.range, node.value);
    default:
      throw new Error(`Unexpected tag '${node.tag}'`);
  }
}

/**
 * The parser splits a multi-line string with `${{ }}` into literal and expression segments from
 * the token's `source` when there is one: the raw YAML, indentation included, so a `run: |`
 * script would keep the block's indentation in its literal parts (breaking heredocs and Python).
 * GitHub's parser splits the scalar's value. Block scalars therefore carry no source: the
 * segments come from the value, at the cost of expression columns inside such blocks being
 * counted from the value's line start rather than the file's.
 */
function stringToken(fileId: number, node: ScalarNode): StringToken {
  const block = node.style === 'Literal' || node.style === 'Folded';
  return new StringToken(fileId, node.range, node.value, undefined, block ? undefined : node.source, node.blockScalarHeader);
}

function matchNull(fileId: number, range: TokenRange, value: string): NullToken | undefined {
  return ['', 'null', 'Null', 'NULL', '~'].includes(value) ? new NullToken(fileId, range, undefined) : undefined;
}

function matchBoolean(fileId: number, range: TokenRange, value: string): BooleanToken | undefined {
  if (value === 'true' || value === 'True' || value === 'TRUE') return new BooleanToken(fileId, range, true, undefined);
  if (value === 'false' || value === 'False' || value === 'FALSE') return new BooleanToken(fileId, range, false, undefined);
  return undefined;
}

const DECIMAL = /^[-+]?[0-9]+$/;
const HEX = /^0x([0-9a-fA-F]+)$/;
const OCTAL = /^0o([0-7]+)$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

function matchInteger(fileId: number, node: ScalarNode): DotNetNumberToken | undefined {
  const value = node.value;
  if (DECIMAL.test(value)) return new DotNetNumberToken(fileId, node.range, Number(value), undefined);
  const radix = HEX.exec(value) ? 16 : OCTAL.exec(value) ? 8 : undefined;
  if (radix === undefined) return undefined;
  // .NET reads these as the bits of a 32-bit signed integer and rejects anything wider.
  const bits = BigInt(`${radix === 16 ? '0x' : '0o'}${value.slice(2)}`);
  if (bits > 0xffffffffn) {
    throw new Error(`The value '${value}' on line ${node.line} and column ${node.column} is invalid for the type '${TAG}int'`);
  }
  return new DotNetNumberToken(fileId, node.range, Number(BigInt.asIntN(32, bits)), undefined);
}

function matchFloat(fileId: number, range: TokenRange, value: string): DotNetNumberToken | undefined {
  switch (value) {
    case '.inf': case '.Inf': case '.INF': case '+.inf': case '+.Inf': case '+.INF':
      return new DotNetNumberToken(fileId, range, Number.POSITIVE_INFINITY, undefined);
    case '-.inf': case '-.Inf': case '-.INF':
      return new DotNetNumberToken(fileId, range, Number.NEGATIVE_INFINITY, undefined);
    case '.nan': case '.NaN': case '.NAN':
      return new DotNetNumberToken(fileId, range, Number.NaN, undefined);
  }
  return FLOAT.test(value) ? new DotNetNumberToken(fileId, range, Number(value), undefined) : undefined;
}

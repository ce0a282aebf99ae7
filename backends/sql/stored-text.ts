import type {
  ValueNode} from 'kysely';
import {
  OperationNodeTransformer,
  PrimitiveValueListNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/**
 * Text the stores cannot keep as it is, kept so that it reads back the same on every store.
 * PostgreSQL refuses U+0000 in text (a 500 for a step named with one), and both drivers write
 * UTF-8, turning a lone surrogate into replacement characters, differently (one on pg, three on
 * better-sqlite3). Every string a query binds is therefore written with an escape character
 * (U+E000, a private-use code point) standing for these, and every string a query reads is
 * decoded:
 *
 *   U+E000 U+E000   stands for U+E000 itself
 *   U+E000 "0"      stands for U+0000
 *   U+E000 "u" hhhh stands for the lone surrogate U+hhhh
 *
 * Strings without these characters (nearly all) are bound and read unchanged, so equality on a
 * column holds for encoded and plain values alike. JSON kept in text columns is JSON.stringify's
 * output (NUL and lone surrogates escaped already) and passes through unchanged. A U+E000 in data
 * written before this codec, followed by one of the marks above, would read back decoded: that
 * code point has no meaning outside private agreements, so this is accepted.
 */
const ESCAPE = '\uE000';
const NEEDS_ENCODING = /[\u0000\uE000\uD800-\uDFFF]/;
const ENCODED = /\uE000(?:\uE000|0|u[0-9a-f]{4})/g;

export function encodeStoredText(text: string): string {
  if (!NEEDS_ENCODING.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0) out += `${ESCAPE}0`;
    else if (unit === 0xe000) out += ESCAPE + ESCAPE;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && isLow(text.charCodeAt(i + 1))) {
      out += text.slice(i, i + 2);
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) out += `${ESCAPE}u${unit.toString(16)}`;
    else out += text.charAt(i);
  }
  return out;
}

function isLow(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

export function decodeStoredText(text: string): string {
  if (!text.includes(ESCAPE)) return text;
  return text.replace(ENCODED, (mark) => {
    if (mark === ESCAPE + ESCAPE) return ESCAPE;
    if (mark === `${ESCAPE}0`) return '\u0000';
    return String.fromCharCode(Number.parseInt(mark.slice(2), 16));
  });
}

function encodeValue(value: unknown): unknown {
  if (typeof value === 'string') return encodeStoredText(value);
  if (Array.isArray(value)) return value.map(encodeValue);
  return value;
}

class EncodeParameters extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const value = encodeValue(node.value);
    return value === node.value ? node : { ...node, value };
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return PrimitiveValueListNode.create(node.values.map(encodeValue));
  }
}

/** The Kysely plugin both SQL stores install: strings encoded on the way in, decoded on the way out. */
export class StoredTextPlugin implements KyselyPlugin {
  readonly #transformer = new EncodeParameters();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const rows = args.result.rows;
    for (const row of rows) {
      for (const [key, value] of Object.entries(row)) {
        if (typeof value === 'string' && value.includes(ESCAPE)) row[key] = decodeStoredText(value);
      }
    }
    return args.result;
  }
}

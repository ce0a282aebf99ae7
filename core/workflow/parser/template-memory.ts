/**
 * Fix "max-result-size": GitHub's parser estimates the memory of everything it reads (tokens of
 * every file, file names) and stops at a ceiling (10 MiB by default) with `Maximum object size
 * exceeded`; the TypeScript parser has no such limit. The estimate is the official one (so a
 * workflow is refused exactly where github.com refuses it): 24 bytes per object, strings 26 bytes
 * plus two per character. Matrix expansion bytes, which GitHub adds while converting, are not
 * counted here.
 */
import { TokenType } from '@actions/workflow-parser/templates/tokens/types';
import type {
  BasicExpressionToken,
  MappingToken,
  SequenceToken,
  StringToken,
  TemplateToken,
} from '@actions/workflow-parser/templates/tokens/index';

const MIN_OBJECT_SIZE = 24;
const STRING_BASE_OVERHEAD = 26;

export const MAX_OBJECT_SIZE_EXCEEDED = 'Maximum object size exceeded';

export class TemplateMemory {
  readonly max: number;
  #bytes = 0;

  constructor(max: number) {
    this.max = max;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Adds bytes; false once the total is over the ceiling. */
  add(bytes: number): boolean {
    this.#bytes += bytes;
    return this.#bytes <= this.max;
  }
}

export function stringBytes(value: string): number {
  return STRING_BASE_OVERHEAD + value.length * 2;
}

/** Bytes of a token tree, mapping keys included. */
export function tokenBytes(root: TemplateToken): number {
  let total = 0;
  const stack: TemplateToken[] = [root];
  for (let token = stack.pop(); token !== undefined; token = stack.pop()) {
    switch (token.templateTokenType) {
      case TokenType.String:
        total += MIN_OBJECT_SIZE + stringBytes((token as StringToken).value);
        break;
      case TokenType.BasicExpression:
        total += MIN_OBJECT_SIZE + stringBytes((token as BasicExpressionToken).expression);
        break;
      case TokenType.Sequence:
        total += MIN_OBJECT_SIZE;
        for (const item of token as SequenceToken) stack.push(item);
        break;
      case TokenType.Mapping:
        total += MIN_OBJECT_SIZE;
        for (const pair of token as MappingToken) stack.push(pair.key, pair.value);
        break;
      default:
        total += MIN_OBJECT_SIZE;
    }
  }
  return total;
}

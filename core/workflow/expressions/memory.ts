/**
 * The runner's memory budget for one evaluation (1 MiB by default). It counts the results that
 * are alive at the same time: each node's result is added at the node's depth, and a node that
 * produces a primitive frees what its children held. Sizes follow the runner's estimate: a string
 * costs 26 bytes plus 2 per UTF-16 unit, anything else 24 bytes.
 */
import { data } from '@actions/expressions';
import { ExpressionError } from './errors.js';
import type { Data } from './data.js';

const STRING_OVERHEAD = 26;
const MIN_OBJECT_SIZE = 24;

export class EvaluationMemory {
  private readonly perDepth: number[] = [];
  private maxActiveDepth = -1;
  private total = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly expression: string,
  ) {}

  /** Accounts for the result of a node evaluated at `depth` (0 = the root). */
  addResult(depth: number, result: Data): void {
    const primitive = result.primitive;
    if (primitive) this.freeBelow(depth);
    this.add(depth, bytesOf(result));
  }

  private freeBelow(depth: number): void {
    while (this.maxActiveDepth > depth) {
      this.total -= this.perDepth[this.maxActiveDepth] ?? 0;
      this.perDepth[this.maxActiveDepth] = 0;
      this.maxActiveDepth--;
    }
  }

  private add(depth: number, bytes: number): void {
    while (this.perDepth.length <= depth) this.perDepth.push(0);
    if (depth > this.maxActiveDepth) this.maxActiveDepth = depth;
    this.perDepth[depth] = (this.perDepth[depth] ?? 0) + bytes;
    this.total += bytes;
    if (this.total > this.maxBytes) throw memoryError(this.expression);
  }
}

export function bytesOf(value: Data): number {
  return value.kind === data.Kind.String ? stringBytes(value.value) : MIN_OBJECT_SIZE;
}

export function stringBytes(value: string): number {
  return STRING_OVERHEAD + value.length * 2;
}

export function memoryError(expression: string): ExpressionError {
  return new ExpressionError(
    'evaluation',
    'max_memory',
    `The maximum allowed memory size was exceeded while evaluating the following expression: ${expression}`,
    expression,
  );
}

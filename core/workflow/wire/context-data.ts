/**
 * The contexts model (plain data: `github`, `needs`, `strategy`, `matrix`, `inputs`, `vars`,
 * ...) → PipelineContextData for the job message's `contextData`, with the runner's own
 * conversion rules (core/protocol `toContextData`: objects become case-insensitive dictionaries,
 * numbers doubles, null stays null).
 */
import { toContextData, type JsonValue, type PipelineContextData } from '../../protocol/index.js';
import type { ExpressionValue } from '../expressions/index.js';

/** One context (or any plain value); `undefined` reads as null, as an absent context does. */
export function contextDataOf(value: ExpressionValue | undefined): PipelineContextData | null {
  // ExpressionValue and JsonValue describe the same plain JSON data.
  return toContextData(value as JsonValue | undefined);
}

/**
 * Several contexts by name, in the order given. A context that is `undefined` is left out;
 * one that is `null` (a job without a matrix) is kept as null, as GitHub sends `matrix: null`.
 */
export function contextDataMap(
  contexts: Readonly<Record<string, ExpressionValue | undefined>>,
): Readonly<Record<string, PipelineContextData | null>> {
  const result: Record<string, PipelineContextData | null> = {};
  for (const [name, value] of Object.entries(contexts)) {
    if (value !== undefined) result[name] = contextDataOf(value);
  }
  return result;
}

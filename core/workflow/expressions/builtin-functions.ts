/**
 * The built-in functions (`contains`, `startsWith`, `endsWith`, `format`, `join`, `toJSON`,
 * `fromJSON`, `case`) as the evaluator calls them: the package's implementations, with results
 * turned into our data classes, and our own `toJSON` (numbers in the runner's format, as the
 * runner writes them) and `fromJSON` (keeps every key and reads numbers into our classes).
 */
import { data, wellKnownFunctions } from '@actions/expressions';
import type { FunctionDefinition } from '@actions/expressions/funcs/info';
import { FunctionFailure } from './errors.js';
import { formatNumber } from './number-format.js';
import { RunnerNumber, RunnerString, toData, type Data } from './data.js';
import type { ExpressionValue } from './value.js';

function adopt(result: Data): Data {
  if (result.kind === data.Kind.String && !(result instanceof RunnerString)) {
    return new RunnerString(result.value);
  }
  if (result.kind === data.Kind.Number && !(result instanceof RunnerNumber)) {
    return new RunnerNumber(result.value);
  }
  return result;
}

function guarded(call: (...args: Data[]) => Data): (...args: Data[]) => Data {
  return (...args) => {
    try {
      return adopt(call(...args));
    } catch (error) {
      // Failures on bad input are plain Errors; a TypeError is a bug or bad contexts: pass it on.
      if (error instanceof FunctionFailure || error instanceof TypeError || error instanceof ReferenceError) {
        throw error;
      }
      throw new FunctionFailure(error instanceof Error ? error.message : String(error), { cause: error });
    }
  };
}

export function toJson(value: Data): string {
  return writeJson(value, '');
}

function writeJson(value: Data, indent: string): string {
  switch (value.kind) {
    case data.Kind.Null:
      return 'null';
    case data.Kind.Boolean:
      return value.value ? 'true' : 'false';
    case data.Kind.Number:
      return formatNumber(value.value);
    case data.Kind.String:
      return JSON.stringify(value.value);
    case data.Kind.Array: {
      const items = value.values();
      if (items.length === 0) return '[]';
      const inner = `${indent}  `;
      return `[\n${items.map((item) => inner + writeJson(item, inner)).join(',\n')}\n${indent}]`;
    }
    default: {
      const pairs = value.pairs();
      if (pairs.length === 0) return '{}';
      const inner = `${indent}  `;
      const lines = pairs.map(
        (pair) => `${inner}${JSON.stringify(pair.key)}: ${writeJson(pair.value, inner)}`,
      );
      return `{\n${lines.join(',\n')}\n${indent}}`;
    }
  }
}

export function fromJson(text: string): Data {
  if (text.trim() === '') {
    throw new FunctionFailure('Error parsing fromJson: the input is empty');
  }
  let parsed: ExpressionValue;
  try {
    parsed = JSON.parse(text) as ExpressionValue;
  } catch (error) {
    const detail = error instanceof Error ? `: ${error.message}` : '';
    throw new FunctionFailure(`Error parsing fromJson${detail}`, { cause: error });
  }
  return toData(parsed);
}

function defineBuiltins(): ReadonlyMap<string, FunctionDefinition> {
  const map = new Map<string, FunctionDefinition>();
  for (const [name, definition] of Object.entries(wellKnownFunctions)) {
    map.set(name, { ...definition, call: guarded(definition.call) });
  }
  const override = (name: string, call: (arg: Data) => Data): void => {
    const definition = map.get(name);
    if (definition) map.set(name, { ...definition, call: guarded((...args) => call(args[0] ?? toData(null))) });
  };
  override('tojson', (value) => new RunnerString(toJson(value)));
  override('fromjson', (value) => fromJson(value.coerceString()));
  return map;
}

/** Lower-cased name to implementation, handed to the package's evaluator. */
export const BUILTIN_FUNCTIONS: ReadonlyMap<string, FunctionDefinition> = defineBuiltins();

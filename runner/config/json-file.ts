import { RunnerConfigError } from './runner-root.js';

/** A root file's JSON (the runner writes a UTF-8 BOM; keys are read case-insensitively, §1.8). */
export function parseRootJson(text: string, path: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new RunnerConfigError(`${path} is not valid JSON (${(error as Error).message}); configure the runner again`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new RunnerConfigError(`${path} must hold a JSON object; configure the runner again`);
  return parsed as Record<string, unknown>;
}

/** The object with its keys renamed to the canonical spelling of `names` when they match case-insensitively. */
export function canonicalKeys(value: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const byLower = new Map(names.map((name) => [name.toLowerCase(), name]));
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [byLower.get(key.toLowerCase()) ?? key, member]));
}

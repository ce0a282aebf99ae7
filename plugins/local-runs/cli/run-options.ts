import { InputError, NotImplementedError } from '../../../core/kernel/cli/index.js';
import { parseValueItems, type RunValueFlags } from './run-values.js';

/** The flags of `svc run`, checked. */
export interface RunOptions {
  /** `-f`: the workflow file as typed (resolved against the repository later); absent: the only one. */
  readonly file?: string;
  /** `--job`, every occurrence and comma list flattened, without repeats; empty: every job. */
  readonly jobs: readonly string[];
  readonly event: string;
  readonly base?: string;
  /** `--payload`: the file's path as typed. */
  readonly payloadFile?: string;
  /** `--secret`, `--var`, `--input` and their files, checked for form; resolved by run-values.ts. */
  readonly values: RunValueFlags;
  readonly json: boolean;
}

/** Flags the spec names that are not built yet: refused, never silently ignored. */
export const NOT_IMPLEMENTED_FLAGS: readonly { readonly key: string; readonly flag: string }[] = [
  { key: 'debug', flag: '--debug' },
  { key: 'preserveOnFailure', flag: '--preserve-on-failure' },
  { key: 'push', flag: '--push' },
  { key: 'createPr', flag: '--create-pr' },
];

export const DEFAULT_EVENT = 'push';
const EVENT_NAME = /^[a-z][a-z_]*$/;

/**
 * Checks the options commander parsed (keys camel-cased, `--job` an array since it is
 * variadic) and applies the defaults. A bad value is an InputError naming the flag; a flag that
 * is not implemented yet a NotImplementedError.
 */
export function parseRunOptions(raw: Readonly<Record<string, unknown>>): RunOptions {
  for (const { key, flag } of NOT_IMPLEMENTED_FLAGS) {
    if (raw[key] !== undefined && raw[key] !== false) throw new NotImplementedError(`svc run ${flag}`);
  }
  const file = optionalText(raw['file'], '-f/--file', 'a workflow file, e.g. -f .github/workflows/ci.yml');
  const values = parseValueFlags(raw);
  const givenEvent = optionalText(raw['event'], '--event', 'an event name such as push');
  const hasInputs = values.inputs.length > 0 || values.inputFile !== undefined;
  // Inputs are workflow_dispatch's: `--input` alone implies that event, another one is a mistake.
  const event = givenEvent ?? (hasInputs ? 'workflow_dispatch' : DEFAULT_EVENT);
  if (!EVENT_NAME.test(event)) throw new InputError(`--event '${event}' is not an event name; use e.g. push, pull_request or workflow_dispatch`, { code: 'invalid_flag' });
  if (hasInputs && event !== 'workflow_dispatch') {
    throw new InputError(`--input and --input-file are for the workflow_dispatch event (the event is ${event}); leave out --event or put other data in --payload`, { code: 'invalid_flag' });
  }
  const base = optionalText(raw['base'], '--base', 'a branch name such as main');
  const payloadFile = optionalText(raw['payload'], '--payload', 'a JSON file, e.g. --payload event.json');
  return {
    ...(file === undefined ? {} : { file }),
    jobs: parseJobs(raw['job']),
    event,
    ...(base === undefined ? {} : { base: base.replace(/^refs\/heads\//, '') }),
    ...(payloadFile === undefined ? {} : { payloadFile }),
    values,
    json: raw['json'] === true,
  };
}

/** `--job a --job b,c` (commander hands a variadic option over as an array, a plain one as a string). */
export function parseJobs(value: unknown): string[] {
  if (value === undefined) return [];
  const given = Array.isArray(value) ? value : [value];
  const jobs: string[] = [];
  for (const item of given) {
    for (const part of String(item).split(',')) {
      const job = part.trim();
      if (job === '') throw new InputError(`--job needs job ids (e.g. --job build or --job build,test), got '${String(item)}'`, { code: 'invalid_flag' });
      if (!jobs.includes(job)) jobs.push(job);
    }
  }
  return jobs;
}

function parseValueFlags(raw: Readonly<Record<string, unknown>>): RunValueFlags {
  const secretFile = optionalText(raw['secretFile'], '--secret-file', 'a dotenv file, e.g. --secret-file .secrets');
  const varFile = optionalText(raw['varFile'], '--var-file', 'a dotenv file, e.g. --var-file .vars');
  const inputFile = optionalText(raw['inputFile'], '--input-file', 'a JSON or dotenv file, e.g. --input-file inputs.json');
  return {
    secrets: parseValueItems('secret', raw['secret']),
    vars: parseValueItems('var', raw['var']),
    inputs: parseValueItems('input', raw['input']),
    ...(secretFile === undefined ? {} : { secretFile }),
    ...(varFile === undefined ? {} : { varFile }),
    ...(inputFile === undefined ? {} : { inputFile }),
  };
}

function optionalText(value: unknown, flag: string, hint: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new InputError(`${flag} needs ${hint}`, { code: 'invalid_flag' });
  return value.trim();
}

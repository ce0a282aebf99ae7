import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError } from '../../../core/kernel/cli/index.js';
import { MAX_SUPPLIED_VALUE_BYTES, MAX_SUPPLIED_VALUES } from '../supplied-values.js';
import { parseDotenv, type DotenvEntry } from './dotenv.js';

/**
 * Run-supplied values of `svc run`: `--secret`, `--secret-file`, `--var`, `--var-file`,
 * `--input`, `--input-file`. Secrets and variables reach the server as the submission's
 * `secrets` and `vars`, inputs as its `inputs`. A value never appears in a message: errors name
 * the flag, the file and line, and the name only.
 */

/** One `--secret`/`--var`/`--input` item: `NAME=VALUE`, or (`--secret` only) `NAME`, its value from outside. */
export interface ValueItem {
  /** Upper-cased for secrets and variables. */
  readonly name: string;
  readonly value?: string;
  /** `--secret NAME`: the name as typed, the first environment variable looked up. */
  readonly typed?: string;
}

/** The value flags, checked for form (names, `=`); files are read and values resolved by resolveRunValues. */
export interface RunValueFlags {
  readonly secrets: readonly ValueItem[];
  readonly secretFile?: string;
  readonly vars: readonly ValueItem[];
  readonly varFile?: string;
  readonly inputs: readonly ValueItem[];
  readonly inputFile?: string;
}

export type InputValue = string | number | boolean;

/** What the submission carries. */
export interface RunValues {
  readonly secrets: Readonly<Record<string, string>>;
  readonly vars: Readonly<Record<string, string>>;
  readonly inputs: Readonly<Record<string, InputValue>>;
}

/** Where `--secret NAME` looks: the environment, then (on a terminal only) a hidden prompt. */
export interface ValueSources {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Absent when stdin is not a terminal. */
  readonly prompt?: (text: string) => Promise<string>;
}


type Kind = 'secret' | 'var';
const NOUN: Readonly<Record<Kind, string>> = { secret: 'secret', var: 'variable' };
const FLAG: Readonly<Record<Kind, string>> = { secret: '--secret', var: '--var' };
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** GitHub's rule for a workflow_dispatch input id. */
const INPUT_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * A secret or variable name by GitHub's rules (letters, digits and `_`, not starting with a
 * digit or `GITHUB_`), upper-cased: names are case-insensitive on GitHub and act upper-cases them,
 * so `--secret token=...` is `secrets.TOKEN` (and the secret store's UPPER_SNAKE holds).
 * `quote: false` when the text may be a value typed by mistake: a message then does not repeat it.
 */
export function checkValueName(kind: Kind, name: string, where: string, quote = true): string {
  if (!NAME.test(name)) {
    const quoted = quote ? `'${name}'` : 'that';
    throw new InputError(`${where}: ${quoted} is not a ${NOUN[kind]} name: use letters, digits and _, not starting with a digit (e.g. DEPLOY_KEY)`, { code: 'invalid_name' });
  }
  const upper = name.toUpperCase();
  if (upper.startsWith('GITHUB_')) throw new InputError(`${where}: ${NOUN[kind]} names must not start with GITHUB_ (reserved): rename '${name}'`, { code: 'invalid_name' });
  return upper;
}

function checkInputName(name: string, where: string): string {
  if (!INPUT_NAME.test(name)) {
    throw new InputError(`${where}: '${name}' is not an input name: use letters, digits, - and _, starting with a letter or _ (as in on.workflow_dispatch.inputs)`, { code: 'invalid_name' });
  }
  return name;
}

/**
 * The items of a repeatable `--secret`/`--var`/`--input` (commander hands a variadic option
 * over as an array), checked for form. Only `--secret` may leave out `=VALUE`.
 */
export function parseValueItems(kind: Kind | 'input', raw: unknown): ValueItem[] {
  if (raw === undefined) return [];
  const flag = kind === 'input' ? '--input' : FLAG[kind];
  const items: ValueItem[] = [];
  for (const item of Array.isArray(raw) ? raw : [raw]) {
    const text = String(item);
    const equals = text.indexOf('=');
    if (equals === -1) {
      if (kind === 'secret') {
        // Without `=`, the whole text is a name; a bad one is not quoted (it may be a value typed by mistake).
        items.push({ name: checkValueName('secret', text, flag, false), typed: text });
        continue;
      }
      const example = kind === 'var' ? 'e.g. --var REGION=eu-west-1' : 'e.g. --input level=debug';
      throw new InputError(`${flag} needs NAME=VALUE (${example}), got '${text}'`, { code: 'invalid_flag' });
    }
    const name = text.slice(0, equals);
    const value = text.slice(equals + 1);
    items.push({ name: kind === 'input' ? checkInputName(name, flag) : checkValueName(kind, name, flag), value });
  }
  return items;
}

/**
 * The values the submission carries: each file first, the flags over it, a later one over an
 * earlier one (last wins, as in act). `--secret NAME` takes the environment variable NAME
 * (empty counts as unset, as in act), else asks on the terminal, else is an error saying how to
 * pass it.
 */
export async function resolveRunValues(flags: RunValueFlags, sources: ValueSources): Promise<RunValues> {
  const secrets: Record<string, string> = {};
  const vars: Record<string, string> = {};
  const inputs: Record<string, InputValue> = {};
  if (flags.secretFile !== undefined) {
    for (const entry of await readValuesFile(flags.secretFile, '--secret-file', sources.cwd)) secrets[checkFileName('secret', entry, flags.secretFile)] = entry.value;
  }
  for (const item of flags.secrets) secrets[item.name] = item.value ?? (await secretFromOutside(item, sources));
  if (flags.varFile !== undefined) {
    for (const entry of await readValuesFile(flags.varFile, '--var-file', sources.cwd)) vars[checkFileName('var', entry, flags.varFile)] = entry.value;
  }
  for (const item of flags.vars) vars[item.name] = item.value ?? '';
  if (flags.inputFile !== undefined) Object.assign(inputs, await readInputFile(flags.inputFile, sources.cwd));
  for (const item of flags.inputs) inputs[item.name] = item.value ?? '';
  for (const [kind, values] of [['secret', secrets], ['var', vars]] as const) {
    const count = Object.keys(values).length;
    if (count > MAX_SUPPLIED_VALUES) throw new InputError(`${count} ${NOUN[kind]}s for one run; the limit is ${MAX_SUPPLIED_VALUES}`, { code: 'too_many_values' });
    for (const [name, value] of Object.entries(values)) checkSize(kind, name, value);
  }
  return { secrets, vars, inputs };
}

async function secretFromOutside(item: ValueItem, sources: ValueSources): Promise<string> {
  const name = item.name;
  // The environment variable as typed, then upper-cased (`--secret token` finds TOKEN too).
  const fromEnv = [item.typed ?? name, name].map((key) => sources.env[key]).find((value) => value !== undefined && value !== '');
  if (fromEnv !== undefined) return fromEnv;
  if (sources.prompt !== undefined) return sources.prompt(`value of secret ${name}: `);
  const typed = item.typed ?? name;
  const variables = typed === name ? `the environment variable ${name}` : `the environment variable ${typed} or ${name}`;
  throw new InputError(
    `secret ${name} has no value: --secret ${typed} reads ${variables} (unset or empty here) or asks on a terminal (stdin is not one); ` +
      `export ${name} first, or put it in a --secret-file`,
    { code: 'missing_value' },
  );
}

function checkFileName(kind: Kind, entry: DotenvEntry, file: string): string {
  return checkValueName(kind, entry.name, `${file} line ${entry.line}`);
}

function checkSize(kind: Kind, name: string, value: string): void {
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > MAX_SUPPLIED_VALUE_BYTES) {
    throw new InputError(`the value of ${NOUN[kind]} ${name} is ${bytes} bytes; the limit is ${MAX_SUPPLIED_VALUE_BYTES} (48 KB)`, { code: 'value_too_large' });
  }
}

async function readText(file: string, flag: string, cwd: string): Promise<string> {
  try {
    return await readFile(resolve(cwd, file), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new InputError(`cannot read ${flag} file ${file} (${code})`, { code: 'invalid_values_file', cause: error });
  }
}

async function readValuesFile(file: string, flag: string, cwd: string): Promise<DotenvEntry[]> {
  return parseDotenv(await readText(file, flag, cwd), `${flag} file ${file}`);
}

/** `--input-file`: a JSON object (strings, numbers, booleans) when it starts with `{`, else dotenv. */
async function readInputFile(file: string, cwd: string): Promise<Record<string, InputValue>> {
  const text = await readText(file, '--input-file', cwd);
  const source = `--input-file file ${file}`;
  if (!text.trimStart().startsWith('{')) {
    const inputs: Record<string, InputValue> = {};
    for (const entry of parseDotenv(text, source)) inputs[checkInputName(entry.name, `${source} line ${entry.line}`)] = entry.value;
    return inputs;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${source} is not valid JSON: ${(error as Error).message}`, { code: 'invalid_values_file', cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new InputError(`${source} must hold a JSON object of inputs`, { code: 'invalid_values_file' });
  const inputs: Record<string, InputValue> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw new InputError(`${source}: input ${name} must be a string, number or boolean, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`, { code: 'invalid_values_file' });
    }
    inputs[checkInputName(name, source)] = value;
  }
  return inputs;
}

/** `secrets: A, B; variables: C; inputs: d`: what is sent, by name only; empty when nothing is. */
export function describeRunValues(values: RunValues): string {
  const parts = [
    ['secrets', Object.keys(values.secrets)],
    ['variables', Object.keys(values.vars)],
    ['inputs', Object.keys(values.inputs)],
  ] as const;
  return parts
    .filter(([, names]) => names.length > 0)
    .map(([what, names]) => `${what}: ${names.join(', ')}`)
    .join('; ');
}

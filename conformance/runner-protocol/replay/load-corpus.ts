/**
 * Reads the corpus: corpus.yaml (settings, server profiles, the upstream files it may cite),
 * locations.yaml, the shared response shapes (shapes/*.json, `$ref: "shape:<name>"`), the
 * fragments and the scenarios. Every file is checked against its format schema; includes are
 * expanded; each scenario goes through the integrity checks for the runner version replayed.
 * A file that cannot be read is a corpus error (the run stops); a scenario with an integrity
 * problem is quarantined.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv, AnySchema, ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { createValidator } from './formats.js';
import { checkIntegrity } from './integrity.js';
import { corpusSchema, fragmentSchema, scenarioSchema } from './scenario-schema.js';
import type { Corpus, CorpusFile, ExchangeStep, FlatStep, FragmentFile, Scenario, ScenarioFile, StepSpec, When } from './scenario-types.js';

/** `conformance/runner-protocol`, where the data lives. */
export const CORPUS_ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');

const MAX_INCLUDE_DEPTH = 8;

export interface LoadOptions {
  readonly root?: string;
  readonly runnerVersion: string;
  /** The version the corpus must say it was recorded against (versions.toml). */
  readonly expectedRecordedAgainst?: string;
}

export interface LoadedCorpus extends Corpus {
  readonly ajv: Ajv;
}

/** A data file's content; a file that does not parse is a corpus error (`undefined`). */
function readData(path: string, errors: string[]): unknown {
  try {
    const text = readFileSync(path, 'utf8');
    return path.endsWith('.json') ? (JSON.parse(text) as unknown) : (parse(text, { merge: true }) as unknown);
  } catch (error) {
    errors.push(`${basename(path)}: ${(error as Error).message.split('\n')[0] ?? ''}`);
    return undefined;
  }
}

function files(dir: string, extensions: readonly string[]): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => extensions.some((ext) => name.endsWith(ext))).sort().map((name) => join(dir, name));
}

function problems(validate: ValidateFunction): string {
  return (validate.errors ?? []).slice(0, 3).map((error) => `${error.instancePath || '(root)'} ${error.message ?? ''}`).join('; ');
}

/** Both conditions: version ranges joined (every comparator must hold), `if`s as one that needs both. */
function combineWhen(outer: When, inner: When | undefined): When {
  const runners = [outer.runners, inner?.runners].filter((range) => range !== undefined).join(' ');
  const conditions = [outer.if, inner?.if].filter((condition) => condition !== undefined);
  if (conditions.length > 1) throw new Error(`a step under an include with 'if' has its own 'if' (${conditions.join(', ')})`);
  return { ...(runners === '' ? {} : { runners }), ...(conditions[0] === undefined ? {} : { if: conditions[0] }) };
}

/** Includes replaced by a `set` of their `with` and the fragment's steps; an include's `when` goes to each step. */
function expand(steps: readonly StepSpec[], fragments: ReadonlyMap<string, FragmentFile>, chain: readonly string[]): FlatStep[] {
  if (chain.length > MAX_INCLUDE_DEPTH) throw new Error(`includes nest deeper than ${MAX_INCLUDE_DEPTH}: ${chain.join(' > ')}`);
  const out: FlatStep[] = [];
  for (const step of steps) {
    if (!('include' in step)) {
      out.push(step);
      continue;
    }
    const fragment = fragments.get(step.include);
    if (!fragment) throw new Error(`include '${step.include}': no fragments/${step.include}.yaml`);
    if (chain.includes(step.include)) throw new Error(`include cycle: ${[...chain, step.include].join(' > ')}`);
    const inner: FlatStep[] = [...(step.with === undefined ? [] : [{ set: step.with }]), ...expand(fragment.steps, fragments, [...chain, step.include])];
    for (const item of inner) {
      if (step.when === undefined) out.push(item);
      else out.push({ ...item, when: combineWhen(step.when, item.when) });
    }
  }
  return out;
}

export function loadCorpus(options: LoadOptions): LoadedCorpus {
  const root = options.root ?? CORPUS_ROOT;
  const errors: string[] = [];
  const formatAjv = createValidator();
  const check = <T>(schema: object, value: unknown, what: string): T | undefined => {
    const validate = formatAjv.compile(schema);
    if (validate(value)) return value as T;
    errors.push(`${what}: ${problems(validate)}`);
    return undefined;
  };

  const settings = check<CorpusFile>(corpusSchema, readData(join(root, 'corpus.yaml'), errors), 'corpus.yaml');
  const locations = (readData(join(root, 'locations.yaml'), errors) ?? {}) as Record<string, string>;
  if (settings && options.expectedRecordedAgainst !== undefined && settings.recordedAgainst !== options.expectedRecordedAgainst) {
    errors.push(`corpus.yaml says recordedAgainst ${settings.recordedAgainst}, versions.toml replay_corpus_runner_version is ${options.expectedRecordedAgainst}`);
  }
  const shapes: AnySchema[] = [];
  for (const path of files(join(root, 'shapes'), ['.json'])) {
    const shape = (readData(path, errors) ?? {}) as { $id?: unknown };
    const expected = `shape:${basename(path, '.json')}`;
    if (shape.$id !== expected) errors.push(`${basename(path)}: $id must be '${expected}'`);
    else shapes.push(shape as AnySchema);
  }
  let ajv: Ajv;
  try {
    ajv = createValidator(shapes);
  } catch (error) {
    errors.push(`shapes: ${(error as Error).message}`);
    ajv = createValidator();
  }

  const fragments = new Map<string, FragmentFile>();
  for (const path of files(join(root, 'fragments'), ['.yaml', '.yml'])) {
    const fragment = check<FragmentFile>(fragmentSchema, readData(path, errors), `fragments/${basename(path)}`);
    if (fragment && fragment.name !== basename(path).replace(/\.ya?ml$/, '')) errors.push(`fragments/${basename(path)}: name must be the file name`);
    else if (fragment) fragments.set(fragment.name, fragment);
  }

  const scenarios: Scenario[] = [];
  const names = new Set<string>();
  for (const path of files(join(root, 'scenarios'), ['.yaml', '.yml'])) {
    const file = `scenarios/${basename(path)}`;
    const definition = check<ScenarioFile>(scenarioSchema, readData(path, errors), file);
    if (!definition || !settings) continue;
    if (definition.name !== basename(path).replace(/\.ya?ml$/, '')) errors.push(`${file}: name must be the file name`);
    if (names.has(definition.name)) errors.push(`${file}: a second scenario named ${definition.name}`);
    names.add(definition.name);
    let steps: FlatStep[];
    try {
      steps = expand(definition.steps, fragments, []);
    } catch (error) {
      errors.push(`${file}: ${(error as Error).message}`);
      continue;
    }
    const checks: readonly ExchangeStep[] = definition.checks ?? [];
    const integrity = checkIntegrity({ definition, steps, checks, settings, locationNames: locations, ajv, runnerVersion: options.runnerVersion });
    const quarantined = definition.quarantined ?? (integrity.length > 0 ? `corpus integrity: ${integrity.join('; ')}` : undefined);
    scenarios.push({ file, definition, steps, checks, ...(quarantined === undefined ? {} : { quarantined }) });
  }
  const fallback: CorpusFile = { recordedAgainst: '0.0.0', headers: {}, defaultTimings: {}, servers: {}, upstream: [], recordDefaults: {} };
  return {
    root,
    settings: settings ?? fallback,
    locations,
    scenarios,
    errors,
    ajv,
  };
}

/**
 * Corpus-integrity checks of one expanded scenario, for the runner version being replayed: what
 * makes a definition unfit to replay whatever the server does. A variable read before anything
 * sets it, a background exchange never awaited, an unknown location, matcher operator, capture
 * root, key or server profile, a schema that does not compile, a source outside the upstream list.
 * A scenario with a problem is quarantined with it (reported apart, never counted).
 */
import type { Ajv } from 'ajv';
import { matcherProblems } from './match.js';
import { locationId } from './locations.js';
import { pathRoot } from './paths.js';
import type { CorpusFile, ExchangeStep, FlatStep, JsonValue, ScenarioFile, When } from './scenario-types.js';
import { referencedVariables } from './template.js';
import { satisfies } from './versions.js';

/** Variables every scenario starts with (execute.ts sets them). */
export const BUILTIN_VARIABLES = ['origin', 'systemToken', 'registrationToken', 'runnerVersion', 'scenario', 'suffix', 'label', 'repository', 'server'] as const;

const CAPTURE_ROOTS = new Set(['status', 'headers', 'body', 'elapsedMs', 'text']);
const KEY_PARAMETER_OF: Readonly<Record<string, string>> = { clientAssertion: 'key', sessionKey: 'key' };

export interface IntegrityInput {
  readonly definition: ScenarioFile;
  readonly steps: readonly FlatStep[];
  readonly checks: readonly ExchangeStep[];
  readonly settings: CorpusFile;
  readonly locationNames: Readonly<Record<string, string>>;
  readonly ajv: Ajv;
  readonly runnerVersion: string;
}

/** Whether a step runs for this version (an `if` is decided at run time: its reads are checked). */
function applies(step: { readonly when?: When }, version: string): boolean {
  return step.when?.runners === undefined || satisfies(version, step.when.runners);
}

export function checkIntegrity(input: IntegrityInput): string[] {
  const { definition, settings } = input;
  const problems: string[] = [];
  for (const source of definition.sources) if (!settings.upstream.includes(source)) problems.push(`source '${source}' is not in corpus.yaml's upstream list`);
  if (!Object.hasOwn(settings.servers, definition.server)) problems.push(`server profile '${definition.server}' is not in corpus.yaml`);

  const defined = new Set<string>([...BUILTIN_VARIABLES, ...(definition.workflow ? ['workflowPath', 'workflowFiles'] : [])]);
  const keys = new Set<string>();
  const pending = new Map<string, ExchangeStep>();
  const reads = (value: unknown, where: string, extra: ReadonlySet<string> = new Set()) => {
    for (const name of referencedVariables(value)) {
      if (!defined.has(name) && !extra.has(name)) problems.push(`${where} reads '${name}' before anything sets it`);
    }
  };
  const setFrom = (values: Readonly<Record<string, JsonValue>>, where: string) => {
    const local = new Set<string>();
    for (const [name, value] of Object.entries(values)) {
      reads(value, where, local);
      local.add(name);
    }
    for (const name of local) defined.add(name);
  };
  setFrom(definition.vars ?? {}, 'vars');

  const compiles = (schema: object | undefined, where: string) => {
    if (schema === undefined) return;
    try {
      input.ajv.compile(schema);
    } catch (error) {
      problems.push(`${where}: the schema does not compile (${(error as Error).message})`);
    }
  };
  const exchange = (step: ExchangeStep, where: string) => {
    reads(step.request, where);
    reads(step.expect ?? {}, where);
    const location = step.request.location;
    if (location !== undefined && locationId(location, input.locationNames) === undefined) problems.push(`${where}: unknown location '${location}'`);
    for (const problem of matcherProblems([step.expect?.body?.match ?? null, step.expect?.headers ?? null])) problems.push(`${where}: ${problem}`);
    compiles(step.expect?.body?.schema, where);
    for (const [name, path] of Object.entries(step.capture ?? {})) {
      let root: string | undefined;
      try {
        root = pathRoot(path);
      } catch (error) {
        problems.push(`${where}: capture '${name}': ${(error as Error).message}`);
      }
      if (root !== undefined && !CAPTURE_ROOTS.has(root)) problems.push(`${where}: capture '${name}' reads '${root}' (one of ${[...CAPTURE_ROOTS].join(', ')})`);
    }
  };
  const captured = (step: ExchangeStep) => Object.keys(step.capture ?? {}).forEach((name) => defined.add(name));

  input.steps.forEach((step, index) => {
    if (!applies(step, input.runnerVersion)) return;
    if (step.when?.if !== undefined) reads(step.when.if, `step ${index + 1} (when.if)`);
    const where = `step ${index + 1}${'name' in step ? ` '${step.name}'` : 'assert' in step ? ` '${step.assert}'` : ''}`;
    if ('request' in step) {
      exchange(step, where);
      if (step.background !== undefined) {
        if (pending.has(step.background)) problems.push(`${where}: background '${step.background}' is already running`);
        pending.set(step.background, step);
      } else captured(step);
    } else if ('set' in step) setFrom(step.set, where);
    else if ('derive' in step) {
      reads(step.with ?? {}, where);
      const keyParameter = KEY_PARAMETER_OF[step.derive];
      const keyName = keyParameter === undefined ? undefined : step.with?.[keyParameter];
      if (keyParameter !== undefined && (typeof keyName !== 'string' || !keys.has(keyName))) problems.push(`${where}: no RSA key named '${String(keyName)}' was derived before`);
      if (step.derive === 'rsaKey') keys.add(step.as);
      if (step.derive === 'jitConfig') keys.add(typeof step.with?.['key'] === 'string' ? step.with['key'] : `${step.as}Key`);
      defined.add(step.as);
    } else if ('await' in step) {
      const started = pending.get(step.await);
      if (!started) problems.push(`${where}: awaits '${step.await}', which no earlier step runs in the background`);
      else {
        pending.delete(step.await);
        captured(started);
      }
    } else if ('assert' in step) {
      reads(step.value, where);
      reads(step.match ?? null, where);
      for (const problem of matcherProblems(step.match ?? null)) problems.push(`${where}: ${problem}`);
      compiles(step.schema, where);
    } else reads(step.sleep, where);
  });
  for (const id of pending.keys()) problems.push(`background '${id}' is never awaited`);
  input.checks.forEach((check, index) => {
    const where = `check ${index + 1} '${check.name}'`;
    if (check.background !== undefined) problems.push(`${where}: checks cannot run in the background`);
    exchange(check, where);
    captured(check);
  });
  return problems;
}

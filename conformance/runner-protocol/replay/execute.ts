/**
 * Replays one scenario against a live server: its steps in order (exchanges, variables, the
 * runner's local computations, held requests in the background, pauses), then its checks through
 * the operator API. The first difference ends the scenario with a reason naming the step.
 */
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { isEmptyAnswer, readBody, type Answer, type Comparator } from './compare.js';
import { derive, DeriveError, type KeyRing, type RsaKeySource } from './derive.js';
import { prepareRequest, RequestError, send, type HttpSettings } from './http.js';
import { baseKey, locationsOf, type ResourceLocation } from './locations.js';
import { readPath } from './paths.js';
import type { ExchangeStep, Expectation, FlatStep, JsonObject, JsonValue, RequestSpec, Scenario } from './scenario-types.js';
import { substitute, substituteString, TemplateError } from './template.js';
import { satisfies } from './versions.js';

export interface Target {
  /** The server's base URL (no trailing `/`). */
  readonly origin: string;
  /** The system credential (operator API). */
  readonly systemToken: string;
  /** What `config.sh --token` is given. */
  readonly registrationToken: string;
  /** The runner-protocol timings the server runs with (`{{server.timings.*}}`). */
  readonly timings: Readonly<Record<string, number>>;
}

export interface ScenarioOutcome {
  readonly name: string;
  readonly status: 'pass' | 'fail';
  readonly reason?: string;
  /** `METHOD /path status (ms)` of every exchange, in order. */
  readonly exchanges: readonly string[];
  readonly durationMs: number;
}

export interface ExecuteOptions {
  readonly http: HttpSettings;
  readonly comparator: Comparator;
  readonly runnerVersion: string;
  readonly target: Target;
  /** Where `derive: rsaKey` gets a runner's key (default: generated). */
  readonly newRsaKey?: RsaKeySource;
}

class StepFailure extends Error {}

interface Performed {
  readonly answer?: Answer;
  readonly failures: readonly string[];
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

class ScenarioRun {
  readonly vars: JsonObject = {};
  readonly keys: KeyRing = new Map();
  readonly locations = new Map<string, Map<string, ResourceLocation>>();
  readonly backgrounds = new Map<string, { readonly step: ExchangeStep; readonly result: Promise<Performed> }>();
  readonly log: string[] = [];
  readonly abort = new AbortController();

  constructor(
    readonly scenario: Scenario,
    readonly options: ExecuteOptions,
  ) {
    // Every request of the scenario listens to this one signal.
    setMaxListeners(0, this.abort.signal);
  }

  /** One log line per exchange; a repeat of the same call and status (a long poll, an eventual check) is counted on the last line. */
  #record(call: string, elapsedMs: number): void {
    const last = this.log.length - 1;
    const repeat = /^(.*) \((\d+) ms\)(?: ×(\d+))?$/.exec(this.log[last] ?? '');
    if (repeat?.[1] === call) this.log[last] = `${call} (${repeat[2]} ms) ×${Number(repeat[3] ?? 1) + 1}`;
    else this.log.push(`${call} (${Math.round(elapsedMs)} ms)`);
  }

  async #sendOnce(step: ExchangeStep): Promise<Answer> {
    const request = substitute(step.request as unknown as JsonValue, this.vars) as unknown as RequestSpec;
    const prepared = await prepareRequest(request, this.options.http, this.locations);
    const answer = await send(prepared, this.options.http.timeoutMs, this.abort.signal, request.followRedirects === true);
    this.#record(`${prepared.method} ${prepared.url.pathname} ${answer.status}`, answer.elapsedMs);
    // The runner keeps each connection's location map: remember what this connectionData says.
    if (prepared.url.pathname.endsWith('/_apis/connectionData') && answer.status === 200) {
      const base = prepared.url.href.slice(0, prepared.url.href.indexOf('_apis/connectionData'));
      const { locations } = locationsOf(readBody(answer).body);
      if (locations) this.locations.set(baseKey(base), locations);
    }
    return answer;
  }

  /** Sends the exchange (again while a long poll is empty, or until an eventual state holds) and compares. */
  async perform(step: ExchangeStep): Promise<Performed> {
    try {
      const started = performance.now();
      const expect = substitute((step.expect ?? {}) as unknown as JsonValue, this.vars) as unknown as Expectation;
      for (;;) {
        let answer = await this.#sendOnce(step);
        if (step.repeat) {
          while (isEmptyAnswer(answer) && performance.now() - started < step.repeat.budgetMs && !this.abort.signal.aborted) answer = await this.#sendOnce(step);
        }
        const failures = this.options.comparator.compare(expect, answer);
        const budget = step.eventually?.budgetMs ?? 0;
        if (failures.length === 0 || performance.now() - started >= budget || this.abort.signal.aborted) return { answer, failures };
        await sleep(step.eventually?.intervalMs ?? 250, this.abort.signal);
      }
    } catch (error) {
      if (error instanceof TemplateError || error instanceof RequestError) return { failures: [error.message] };
      throw error;
    }
  }

  #capture(step: ExchangeStep, performed: Performed, label: string): void {
    if (performed.failures.length > 0 || !performed.answer) {
      const [first, ...rest] = performed.failures;
      throw new StepFailure(`${label}: ${first ?? 'failed'}${rest.length > 0 ? ` (and ${rest.length} more: ${rest.slice(0, 3).join('; ')})` : ''}`);
    }
    const answer = performed.answer;
    const root: JsonObject = { status: answer.status, headers: answer.headers, elapsedMs: answer.elapsedMs, text: answer.text };
    const body = readBody(answer, step.expect?.body?.format).body;
    if (body !== undefined) root['body'] = body;
    for (const [name, template] of Object.entries(step.capture ?? {})) {
      // A capture path may name a captured value: `body.records[id={{jobId}}]`.
      const path = String(substituteString(template, this.vars));
      const value = readPath(root, path);
      if (value === undefined) throw new StepFailure(`${label}: the answer has no ${path} to capture as '${name}': ${answer.text.slice(0, 300)}`);
      this.vars[name] = value;
    }
  }

  async step(step: FlatStep, label: string): Promise<void> {
    if ('request' in step) {
      if (step.background !== undefined) {
        const result = this.perform(step).catch((error: unknown) => ({ failures: [(error as Error).message] }));
        this.backgrounds.set(step.background, { step, result });
        return;
      }
      this.#capture(step, await this.perform(step), label);
    } else if ('await' in step) {
      const background = this.backgrounds.get(step.await);
      if (!background) throw new StepFailure(`${label}: nothing runs in the background as '${step.await}'`);
      this.backgrounds.delete(step.await);
      this.#capture(background.step, await background.result, `${label} (background '${background.step.name}')`);
    } else if ('set' in step) {
      for (const [name, value] of Object.entries(step.set)) this.vars[name] = substitute(value, this.vars);
    } else if ('derive' in step) {
      const input = substitute(step.with ?? {}, this.vars) as JsonObject;
      this.vars[step.as] = await derive(step.derive, input, this.keys, step.as, this.options.newRsaKey);
    } else if ('assert' in step) {
      const value = substitute(step.value, this.vars);
      const failures = this.options.comparator.compareValue({ ...(step.schema ? { schema: step.schema } : {}), ...(step.match === undefined ? {} : { match: substitute(step.match, this.vars) }) }, value);
      if (failures.length > 0) throw new StepFailure(`${label}: ${failures.slice(0, 4).join('; ')}`);
    } else {
      const value = substitute(step.sleep, this.vars);
      const ms = (Array.isArray(value) ? value : [value]).reduce<number>((sum, item) => sum + Number(item), 0);
      if (!Number.isFinite(ms) || ms < 0) throw new StepFailure(`${label}: sleep ${JSON.stringify(value)} is not a number of milliseconds`);
      await sleep(ms, this.abort.signal);
    }
  }

  init(): void {
    const { target, runnerVersion } = this.options;
    const definition = this.scenario.definition;
    const suffix = randomBytes(4).toString('hex');
    Object.assign(this.vars, {
      origin: target.origin,
      systemToken: target.systemToken,
      registrationToken: target.registrationToken,
      runnerVersion,
      scenario: definition.name,
      suffix,
      label: `replay-${suffix}`,
      repository: `replay/${definition.name}`,
      server: { timings: { ...target.timings } },
    });
    for (const [name, value] of Object.entries(definition.vars ?? {})) this.vars[name] = substitute(value, this.vars);
    if (definition.workflow) {
      this.vars['workflowPath'] = definition.workflow.path;
      this.vars['workflowFiles'] = substitute(definition.workflow.files as JsonObject, this.vars);
    }
  }

  async run(): Promise<void> {
    this.init();
    const version = this.options.runnerVersion;
    const steps = this.scenario.steps;
    for (const [index, step] of steps.entries()) {
      if (!this.#applies(step, version)) continue;
      await this.#labelled(step, `step ${index + 1}${'name' in step ? ` '${step.name}'` : 'assert' in step ? ` '${step.assert}'` : ''}`);
    }
    for (const [index, check] of this.scenario.checks.entries()) await this.#labelled(check, `check ${index + 1} '${check.name}'`);
  }

  #applies(step: FlatStep, version: string): boolean {
    if (step.when?.runners !== undefined && !satisfies(version, step.when.runners)) return false;
    if (step.when?.if === undefined) return true;
    // `a == b` / `a != b`: both sides substituted, compared as text.
    const comparison = /^(.*?)\s+(==|!=)\s+(.*)$/.exec(step.when.if);
    if (comparison) {
      const side = (text: string) => {
        const value = substitute(text.trim(), this.vars);
        return typeof value === 'string' ? value : JSON.stringify(value);
      };
      return (side(comparison[1] ?? '') === side(comparison[3] ?? '')) === (comparison[2] === '==');
    }
    const value = substitute(step.when.if, this.vars);
    return value === true || (typeof value === 'string' && !['', 'false', '0'].includes(value.toLowerCase())) || (typeof value === 'number' && value !== 0);
  }

  async #labelled(step: FlatStep, label: string): Promise<void> {
    try {
      await this.step(step, label);
    } catch (error) {
      if (error instanceof DeriveError || error instanceof TemplateError || error instanceof RequestError) throw new StepFailure(`${label}: ${error.message}`);
      throw error;
    }
  }
}

export async function runScenario(scenario: Scenario, options: ExecuteOptions): Promise<ScenarioOutcome> {
  const started = performance.now();
  const run = new ScenarioRun(scenario, options);
  const name = scenario.definition.name;
  try {
    await run.run();
    return { name, status: 'pass', exchanges: run.log, durationMs: performance.now() - started };
  } catch (error) {
    const reason = error instanceof StepFailure ? error.message : `replay error: ${(error as Error).stack ?? String(error)}`;
    return { name, status: 'fail', reason, exchanges: run.log, durationMs: performance.now() - started };
  } finally {
    run.abort.abort();
    await Promise.allSettled([...run.backgrounds.values()].map((background) => background.result));
  }
}

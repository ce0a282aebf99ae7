/**
 * Fuzz of the JSON routes (issue 15): every route that takes a body, taken from the route table
 * so that a new route is fuzzed too, gets bodies built from its schema and then broken (wrong
 * types, numbers past any column, NUL and lone surrogates, deep nesting, missing and extra
 * fields, strings as long as the body limit allows), with the credential its kind wants (system
 * token, registration credential, a configured runner's token, a running job's token). Loopback
 * only, a fixed seed and a bounded count. A 5xx is a bug: the test counts them by route and
 * fails on any. Path parameters get numbers past a column and non-numbers on every route too.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { routeTable, type RouteEntry } from '../../core/kernel/index.js';
import { runnerHost, RUNNER_BACKENDS } from './runner-host.js';
import { ScriptedRunner } from './scripted-runner.js';
import { ScriptedWorker } from './scripted-worker.js';
import { createRun, dispatchNext, ONE_STEP_WORKFLOW } from './worker-job.js';

const SEED = 20261129;
/** Random mutations per route, on top of the fixed ones. */
const RANDOM_ROUNDS = 16;
const AWKWARD = 'a\u0000b\ud800c\udfff\ue000';

/** A small deterministic generator (a linear congruential one is enough to vary inputs). */
class Random {
  #state: number;
  constructor(seed: number) {
    this.#state = seed;
  }
  next(): number {
    this.#state = (Math.imul(this.#state, 1103515245) + 12345) >>> 0;
    return this.#state / 2 ** 32;
  }
  pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.next() * values.length)] as T;
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, unknown>;

function schemaType(schema: Schema): string | undefined {
  const type = schema['type'];
  if (Array.isArray(type)) return type.find((t) => t !== 'null') as string | undefined;
  if (typeof type === 'string') return type;
  if (schema['properties'] !== undefined) return 'object';
  return undefined;
}

/** An instance that roughly fits the schema (an enum's first value, a GUID where a pattern asks for hex). */
function instance(schema: unknown, depth = 0): Json {
  if (typeof schema !== 'object' || schema === null || depth > 8) return 'x';
  const s = schema as Schema;
  if (Array.isArray(s['enum'])) return s['enum'][0] as Json;
  const options = (s['anyOf'] ?? s['oneOf']) as unknown[] | undefined;
  if (Array.isArray(options) && options.length > 0) return instance(options[0], depth + 1);
  switch (schemaType(s)) {
    case 'object': {
      const properties = (s['properties'] ?? {}) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, instance(value, depth + 1)]));
    }
    case 'array':
      return [instance(s['items'], depth + 1)];
    case 'integer':
    case 'number':
      return typeof s['minimum'] === 'number' ? s['minimum'] : 1;
    case 'boolean':
      return true;
    case 'string':
      return typeof s['pattern'] === 'string' && /[0-9a-f]/i.test(s['pattern']) ? randomUUID() : 'x';
    default:
      return 'x';
  }
}

/** `value` with every leaf passed through `leaf` (objects and arrays kept). */
function mapLeaves(value: Json, leaf: (value: Json) => Json): Json {
  if (Array.isArray(value)) return value.map((inner) => mapLeaves(inner, leaf));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, mapLeaves(inner, leaf)]));
  return leaf(value);
}

function wrongType(value: Json): Json {
  if (typeof value === 'string') return 1;
  if (typeof value === 'number') return 'x';
  if (typeof value === 'boolean') return 'true';
  if (Array.isArray(value)) return {};
  if (value === null) return [];
  return [];
}

function deep(levels: number): string {
  return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

/** The bodies one route gets: fixed breakages of its schema's instance, then random ones. */
function bodies(route: RouteEntry, random: Random): string[] {
  const base = instance(route.bodySchema ?? { type: 'object' });
  const budget = Math.min(route.bodyLimit, 64 * 1024) - 4096;
  const leaves: Json[] = [];
  mapLeaves(base, (leaf) => (leaves.push(leaf), leaf));
  const longString = 'y'.repeat(Math.max(1, Math.floor(budget / Math.max(1, leaves.length)) - 16));
  const fixed: Json[] = [
    base,
    mapLeaves(base, (leaf) => (typeof leaf === 'string' ? `${leaf}${AWKWARD}` : leaf)),
    mapLeaves(base, (leaf) => (typeof leaf === 'number' ? 1e308 : leaf)),
    mapLeaves(base, (leaf) => (typeof leaf === 'number' ? -1e308 : leaf)),
    mapLeaves(base, (leaf) => (typeof leaf === 'number' ? 2 ** 63 : leaf)),
    mapLeaves(base, (leaf) => (typeof leaf === 'number' ? 2 ** 31 : leaf)),
    mapLeaves(base, (leaf) => (typeof leaf === 'number' ? 1.5 : leaf)),
    mapLeaves(base, wrongType),
    mapLeaves(base, (leaf) => (typeof leaf === 'string' ? longString : leaf)),
    mapLeaves(base, (leaf) => (typeof leaf === 'string' ? AWKWARD : typeof leaf === 'number' ? -1 : leaf)),
    typeof base === 'object' && base !== null && !Array.isArray(base) ? { ...base, extra: { nested: [1, 'two', null] } } : base,
    {},
    [],
    null,
    1e308,
    AWKWARD,
  ];
  const out = fixed.map((body) => JSON.stringify(body));
  out.push(deep(Math.floor(Math.min(budget, 20_000) / 2)), '{"a":', '\u0000', JSON.stringify({ value: JSON.parse(deep(500)) as Json }));
  for (let round = 0; round < RANDOM_ROUNDS; round++) {
    const mutated = mapLeaves(base, (leaf) =>
      random.pick<Json>([leaf, leaf, wrongType(leaf), 1e308, -1, 0, 2 ** 53, '', AWKWARD, null, [], {}, longString.slice(0, 2000), true]),
    );
    out.push(JSON.stringify(mutated));
  }
  return out;
}

for (const backend of RUNNER_BACKENDS) {
  describe(`fuzz of the JSON routes (${backend.kind})`, { skip: backend.skip }, () => {
    it('no body, however broken, gets a 5xx on any route with the right credential', async (t) => {
      const h = await runnerHost(t, { kind: backend.kind, plugins: ['management-api', 'blobs', 'local-runs', 'runtime-services', 'checkout-relay'] });
      const run = await createRun(h, ONE_STEP_WORKFLOW);
      const job = await dispatchNext(h);
      const worker = new ScriptedWorker(job.info);
      await worker.connect();
      const runner = new ScriptedRunner({ url: `${h.baseUrl}/acme/widgets`, token: h.systemToken, name: 'fuzz-01', clock: h.clock });
      const config = await runner.configure({ labels: ['fuzz'] });
      const runnerToken = await runner.accessToken(config);

      const params: Record<string, string> = {
        scopeIdentifier: job.info.scopeIdentifier,
        owner: 'acme',
        repo: 'widgets',
        hubName: job.info.hubName,
        planId: job.info.planId,
        timelineId: job.info.timelineId,
        recordId: job.info.jobId,
        jobId: job.info.jobId,
        logId: '1',
        type: 'Checks.Step.Summary',
        name: 'summary',
        run_id: String(run.id),
        job_id: String(job.assignment.job.id),
        poolId: String(config.settings.poolId),
        agentId: String(config.settings.agentId),
        sessionId: randomUUID(),
        messageId: '1',
        requestId: '1',
        cacheId: '1',
        runnerId: '1',
        uploadId: randomUUID(),
        blobId: randomUUID(),
      };
      const credentialFor = (url: string): string | undefined => {
        if (url === '/api/v3/actions/runner-registration' || url.startsWith('/api/v3/actions/runners/')) return `RemoteAuth ${h.systemToken}`;
        if (url.startsWith('/api/')) return `Bearer ${h.systemToken}`;
        if (url === '/_apis/oauth2/token') return undefined;
        if (url.startsWith('/_apis/distributedtask/pools') || url.startsWith('/broker/') || url === '/run-service/acquirejob') return `Bearer ${runnerToken}`;
        return `Bearer ${job.info.token}`;
      };
      const fill = (url: string) => url.replace(/:([A-Za-z_]+)/g, (_match, name: string) => encodeURIComponent(params[name] ?? '1')).replace(/\*/g, 'x');

      const random = new Random(SEED);
      const routes = routeTable(h.host.app).filter((route) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method));
      assert.ok(routes.length > 40, `${routes.length} routes with a body`);
      const failures = new Map<string, { count: number; example: string }>();
      let sent = 0;
      const statuses = new Map<number, number>();
      for (const route of routes) {
        const url = `${h.baseUrl}${fill(route.url)}`;
        const authorization = credentialFor(route.url);
        for (const body of bodies(route, random)) {
          const response = await fetch(url, {
            method: route.method,
            headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
            body,
          });
          const text = await response.text();
          sent++;
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status >= 500) {
            const key = `${route.method} ${route.url}`;
            const seen = failures.get(key);
            failures.set(key, { count: (seen?.count ?? 0) + 1, example: seen?.example ?? `${response.status} for ${body.slice(0, 200)}: ${text.slice(0, 300)}` });
          }
        }
      }
      // Path parameters past what a column keeps, or not numbers at all, on every route (URL-encoded:
      // a NUL and the bytes of a lone surrogate among them).
      const PARAM_VALUES = ['9007199254740991', '2147483648', '-1', '0', '1e308', 'x', 'a%00b%ED%A0%80c', '1'.repeat(300)];
      for (const route of routeTable(h.host.app)) {
        if (!route.url.includes(':') || route.method === 'HEAD') continue;
        const authorization = credentialFor(route.url);
        for (const value of PARAM_VALUES) {
          const url = `${h.baseUrl}${route.url.replace(/:([A-Za-z_]+)/g, (_match, name: string) => ['owner', 'repo', 'scopeIdentifier', 'hubName'].includes(name) ? encodeURIComponent(params[name] ?? 'x') : value).replace(/\*/g, 'x')}`;
          const response = await fetch(url, {
            method: route.method,
            headers: { ...(authorization === undefined ? {} : { authorization }), ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { 'content-type': 'application/json' }) },
            ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: '{}' }),
          });
          const text = await response.text();
          sent++;
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status >= 500) {
            const key = `${route.method} ${route.url} (path)`;
            const seen = failures.get(key);
            failures.set(key, { count: (seen?.count ?? 0) + 1, example: seen?.example ?? `${response.status} for ${value.slice(0, 40)}: ${text.slice(0, 300)}` });
          }
        }
      }
      const total = [...failures.values()].reduce((sum, failure) => sum + failure.count, 0);
      process.stdout.write(`# fuzz (${backend.kind}): ${sent} requests over ${routes.length} routes, ${total} answered 5xx; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}\n`);
      for (const [route, failure] of failures) process.stdout.write(`#   ${failure.count} x ${route}: ${failure.example}\n`);
      assert.equal(total, 0, `5xx answers: ${[...failures].map(([route, failure]) => `${route} (${failure.count}): ${failure.example}`).join('\n')}`);
    });
  });
}

/** Shared set-up of the broker-flow suites: a host on SVC_RUNNER_FLOW=broker, a runner with a broker session, an acquired job message. */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { runnerHost, type RunnerHost, type StoreKind } from './runner-host.js';
import { ScriptedBroker } from './scripted-broker.js';
import { ScriptedRunner } from './scripted-runner.js';

export function brokerHost(t: TestContext, kind: StoreKind): Promise<RunnerHost> {
  return runnerHost(t, { kind, env: { SVC_RUNNER_FLOW: 'broker' }, plugin: { timings: { pollHoldMs: 1500 } } });
}

/** Configured as the official runner does with SVC_RUNNER_FLOW=broker: the runner-admin path (§1.7). */
export async function brokerRunner(h: RunnerHost, name: string): Promise<ScriptedBroker> {
  const runner = new ScriptedRunner({ url: `${h.baseUrl}/acme/widgets`, token: h.systemToken, name, clock: h.clock });
  const config = await runner.configure({ labels: ['linux'] });
  assert.equal(config.settings.useRunnerAdminFlow, true, 'registration sent the runner down the runner-admin path');
  assert.equal(config.settings.useV2Flow, true, 'the runner-admin path ends in a broker configuration');
  assert.ok(config.settings.serverUrlV2, 'the agent carries ServerUrlV2');
  const broker = new ScriptedBroker(runner, config, config.settings.serverUrlV2);
  assert.equal((await broker.createSession()).status, 200);
  return broker;
}

export interface Acquired {
  readonly systemUrl: string;
  readonly token: string;
  readonly ids: { readonly planId: string; readonly jobId: string };
  readonly body: Record<string, unknown>;
}

export function acquiredJob(body: Record<string, unknown>): Acquired {
  const endpoints = (body['resources'] as { endpoints: { name: string; url: string; authorization: { parameters: { AccessToken: string } } }[] }).endpoints;
  const system = endpoints.find((endpoint) => endpoint.name === 'SystemVssConnection');
  assert.ok(system, 'the job message has a SystemVssConnection');
  const planId = (body['plan'] as { planId: string }).planId;
  return { systemUrl: system.url, token: system.authorization.parameters.AccessToken, ids: { planId, jobId: String(body['jobId']) }, body };
}

export function assertEnvelope(body: unknown, expected: Record<string, unknown>): void {
  const error = body as Record<string, unknown>;
  for (const [key, value] of Object.entries(expected)) assert.equal(error[key], value, `${key} of ${JSON.stringify(body)}`);
  assert.equal(typeof error['errorMessage'], 'string');
}

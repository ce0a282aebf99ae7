/**
 * Replays the corpus (or the scenarios asked for) for one runner version: scenarios the version
 * is outside of are skipped, quarantined ones set apart, the rest run one after the other against
 * the remote target, or against in-process servers, one per server profile, started on first use
 * and stopped at the end.
 */
import { Comparator } from './compare.js';
import { runScenario, type ScenarioOutcome, type Target } from './execute.js';
import type { RsaKeySource } from './derive.js';
import { startInProcessServer, type InProcessServer, type InProcessServerOptions } from './in-process-server.js';
import type { LoadedCorpus } from './load-corpus.js';
import type { Scenario } from './scenario-types.js';
import { satisfies } from './versions.js';

export interface ReplayResult {
  readonly name: string;
  readonly status: 'pass' | 'fail' | 'quarantined' | 'skip';
  readonly reason?: string;
  readonly exchanges?: readonly string[];
  readonly durationMs?: number;
}

export interface ReplayOptions {
  readonly corpus: LoadedCorpus;
  readonly runnerVersion: string;
  /** A server to replay against; without it each profile gets an in-process server. */
  readonly remote?: Omit<Target, 'timings'>;
  /** Only these scenarios (by name). */
  readonly only?: readonly string[];
  /** The longest one request may take (default 120 s: above the runner's own 100 s). */
  readonly timeoutMs?: number;
  /** Called as each scenario finishes (the CLI prints its line then). */
  readonly onResult?: (result: ReplayResult) => void;
  /** Where runners' keys come from (default: generated; the test suite takes them from its pool). */
  readonly newRsaKey?: RsaKeySource;
  /** How in-process servers are started (the test suite seeds their signing keys). */
  readonly serverOptions?: InProcessServerOptions;
}

export function selectScenarios(corpus: LoadedCorpus, only: readonly string[] | undefined): Scenario[] {
  if (only === undefined || only.length === 0) return [...corpus.scenarios];
  const known = new Set(corpus.scenarios.map((scenario) => scenario.definition.name));
  const unknown = only.filter((name) => !known.has(name));
  if (unknown.length > 0) throw new Error(`no scenario named ${unknown.join(', ')} (known: ${[...known].join(', ')})`);
  return corpus.scenarios.filter((scenario) => only.includes(scenario.definition.name));
}

/** Results in corpus order. */
export async function replayCorpus(options: ReplayOptions): Promise<ReplayResult[]> {
  const { corpus, runnerVersion } = options;
  const comparator = new Comparator(corpus.ajv);
  const http = { headers: corpus.settings.headers, locationNames: corpus.locations, recordDefaults: corpus.settings.recordDefaults, timeoutMs: options.timeoutMs ?? 120_000 };
  const servers = new Map<string, Promise<InProcessServer>>();
  const targetFor = async (profileName: string): Promise<Target> => {
    if (options.remote) return { ...options.remote, timings: corpus.settings.defaultTimings };
    let server = servers.get(profileName);
    if (!server) {
      const profile = corpus.settings.servers[profileName];
      if (!profile) throw new Error(`no server profile '${profileName}'`);
      server = startInProcessServer(profile, corpus.settings.defaultTimings, options.serverOptions);
      servers.set(profileName, server);
    }
    return (await server).target;
  };

  const results: ReplayResult[] = [];
  const report = (result: ReplayResult) => {
    results.push(result);
    options.onResult?.(result);
  };
  try {
    for (const scenario of selectScenarios(corpus, options.only)) {
      const { name, runners, server } = scenario.definition;
      if (!satisfies(runnerVersion, runners)) {
        report({ name, status: 'skip', reason: `written for runners ${runners}, not ${runnerVersion}` });
      } else if (scenario.quarantined !== undefined) {
        report({ name, status: 'quarantined', reason: scenario.quarantined });
      } else {
        let outcome: ScenarioOutcome;
        try {
          outcome = await runScenario(scenario, { http, comparator, runnerVersion, target: await targetFor(server), ...(options.newRsaKey ? { newRsaKey: options.newRsaKey } : {}) });
        } catch (error) {
          outcome = { name, status: 'fail', reason: `the server did not start: ${(error as Error).message}`, exchanges: [], durationMs: 0 };
        }
        report(outcome);
      }
    }
  } finally {
    const started = await Promise.allSettled(servers.values());
    await Promise.allSettled(started.map((server) => (server.status === 'fulfilled' ? server.value.stop() : undefined)));
  }
  return results;
}

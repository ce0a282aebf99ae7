/**
 * One scenario, both ways, on one recording server of the scenario's profile: first the replay
 * (the official runner's exchanges, which must pass), then svc-runner playing the same part with
 * its own label and repository; the two recordings compared (sequence.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Catalog } from '../../../core/kernel/index.js';
import type { RsaKeySource } from '../replay/derive.js';
import { Comparator } from '../replay/compare.js';
import { runScenario } from '../replay/execute.js';
import type { HttpSettings } from '../replay/http.js';
import type { LoadedCorpus } from '../replay/load-corpus.js';
import type { JsonObject } from '../replay/scenario-types.js';
import { substitute } from '../replay/template.js';
import { driveRunner } from './drive-runner.js';
import type { RunnerPlan } from './plans.js';
import { startRecordingServer } from './recording-server.js';
import { compareSequences, type SequenceComparison } from './sequence.js';

export interface SequenceResult {
  readonly name: string;
  readonly status: 'pass' | 'fail';
  readonly reason?: string;
  readonly comparison?: SequenceComparison;
  /** What svc-runner printed (for a failure). */
  readonly output?: readonly string[];
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where the replay's runner keys come from and how the server's catalog is wrapped (the test suite: its key pool). */
export interface CheckOptions {
  readonly newRsaKey?: RsaKeySource;
  readonly wrapCatalog?: (catalog: Catalog) => Catalog;
}

export async function checkScenario(corpus: LoadedCorpus, plan: RunnerPlan, runnerVersion: string, options: CheckOptions = {}): Promise<SequenceResult> {
  const name = plan.scenario;
  const scenario = corpus.scenarios.find((candidate) => candidate.definition.name === name);
  if (!scenario) return { name, status: 'fail', reason: `no scenario named ${name}` };
  const profile = corpus.settings.servers[scenario.definition.server];
  if (!profile) return { name, status: 'fail', reason: `no server profile '${scenario.definition.server}'` };
  const http: HttpSettings = { headers: corpus.settings.headers, locationNames: corpus.locations, recordDefaults: corpus.settings.recordDefaults, timeoutMs: 120_000 };

  const server = await startRecordingServer(profile, corpus.settings.defaultTimings, options.wrapCatalog);
  try {
    const replay = await runScenario(scenario, { http, comparator: new Comparator(corpus.ajv), runnerVersion, target: server.target, ...(options.newRsaKey ? { newRsaKey: options.newRsaKey } : {}) });
    if (replay.status !== 'pass') return { name, status: 'fail', reason: `the replay itself fails, so the corpus sequence is incomplete: ${replay.reason ?? ''}` };
    await delay(200);
    const corpusCalls = server.recorder.take();

    const suffix = randomBytes(4).toString('hex');
    const label = `svc-runner-${suffix}`;
    const workflow = scenario.definition.workflow;
    let output: string[] = [];
    try {
      output = await driveRunner({
        target: server.target,
        http,
        recorder: server.recorder,
        plan,
        label,
        repository: `svc-runner/${name}`,
        workflow: workflow && { path: workflow.path, files: substitute(workflow.files as JsonObject, { label, suffix }) as JsonObject },
        env: profile.env ?? {},
      });
    } catch (error) {
      return { name, status: 'fail', reason: `svc-runner did not play its part: ${(error as Error).message}`, comparison: compareSequences(corpusCalls, server.recorder.take(), plan.tailProbes) };
    }
    await delay(200);
    const comparison = compareSequences(corpusCalls, server.recorder.take(), plan.tailProbes);
    return comparison.ok ? { name, status: 'pass', comparison, output } : { name, status: 'fail', reason: comparison.divergences.join('; '), comparison, output };
  } finally {
    await server.stop();
  }
}

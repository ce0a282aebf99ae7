/**
 * `npm run conform:protocol -- [--runner <version>] [--url <target> [--token <system token>]]
 * [--registration-token <token>] [--scenario <name>]... [--json] [--verbose]`
 *
 * Replays the runner-protocol corpus. Without `--url` it starts its own server in-process (one
 * per server profile the scenarios name). `--runner` defaults to versions.toml
 * `replay_corpus_runner_version`. Exit code 0 when every scenario that ran passed, 1 when one
 * failed, 2 for a usage or corpus error.
 */
import { parseArgs } from 'node:util';
import { readVersions } from '../../../core/kernel/index.js';
import { loadCorpus } from './load-corpus.js';
import { closingLines, jsonReport, resultLine } from './report.js';
import { replayCorpus, type ReplayResult } from './run-corpus.js';
import { parseVersion } from './versions.js';

const USAGE = `usage: npm run conform:protocol -- [--runner <version>] [--url <target>] [--token <system token>]
       [--registration-token <token>] [--scenario <name>]... [--json] [--verbose]`;

function fail(message: string): never {
  process.stderr.write(`conform:protocol: ${message}\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        runner: { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        'registration-token': { type: 'string' },
        scenario: { type: 'string', multiple: true },
        json: { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const versions = readVersions();
  const runnerVersion = values.runner ?? versions.replayCorpusRunnerVersion;
  try {
    parseVersion(runnerVersion);
  } catch (error) {
    fail((error as Error).message);
  }

  let remote;
  if (values.url !== undefined) {
    let origin: string;
    try {
      origin = new URL(values.url).href.replace(/\/+$/, '');
    } catch {
      fail(`--url '${values.url}' is not a URL`);
    }
    const systemToken = values.token ?? process.env.SVC_SYSTEM_TOKEN;
    if (!systemToken) fail('--url needs the system credential: --token <token> or SVC_SYSTEM_TOKEN');
    remote = { origin, systemToken, registrationToken: values['registration-token'] ?? systemToken };
  }

  const corpus = loadCorpus({ runnerVersion, expectedRecordedAgainst: versions.replayCorpusRunnerVersion });
  if (corpus.errors.length > 0) fail(`the corpus does not load:\n  ${corpus.errors.join('\n  ')}`);

  const print = (line: string) => process.stdout.write(`${line}\n`);
  const onResult = (result: ReplayResult) => {
    if (values.json) return;
    const line = resultLine(result);
    if (line !== undefined) print(line);
    if (values.verbose && result.status === 'fail') for (const exchange of result.exchanges ?? []) print(`    ${exchange}`);
  };
  let results: ReplayResult[];
  try {
    results = await replayCorpus({ corpus, runnerVersion, ...(remote ? { remote } : {}), ...(values.scenario ? { only: values.scenario } : {}), onResult });
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.json) print(jsonReport(results, { runner: runnerVersion, target: remote?.origin ?? 'in-process' }));
  else for (const line of closingLines(results)) print(line);
  return results.some((result) => result.status === 'fail') ? 1 : 0;
}

process.exitCode = await main();

import { schemaProblems } from '../client/index.js';
import { canonicalKeys, parseRootJson } from './json-file.js';
import { ROOT_FILES, RunnerConfigError, type RunnerRoot } from './runner-root.js';

/** `.runner` (§1.8; actions/runner RunnerSettings), keys as the runner's camel-case serializer writes them. */
export interface RunnerSettings {
  readonly agentId: number;
  readonly agentName: string;
  readonly poolId: number;
  readonly poolName?: string;
  /** The tenant URL (base of the `_apis` calls). */
  readonly serverUrl: string;
  /** The `--url` the runner was configured with. */
  readonly gitHubUrl?: string;
  readonly workFolder: string;
  readonly isHostedServer?: boolean;
  /** The broker flow (§1.6); `serverUrlV2` is then mandatory. */
  readonly useV2Flow?: boolean;
  readonly serverUrlV2?: string;
  readonly ephemeral?: boolean;
  readonly disableUpdate?: boolean;
  readonly skipSessionRecover?: boolean;
  readonly useRunnerAdminFlow?: boolean;
  readonly monitorSocketAddress?: string;
}

const KEYS = [
  'agentId',
  'agentName',
  'poolId',
  'poolName',
  'serverUrl',
  'gitHubUrl',
  'workFolder',
  'isHostedServer',
  'useV2Flow',
  'serverUrlV2',
  'ephemeral',
  'disableUpdate',
  'skipSessionRecover',
  'useRunnerAdminFlow',
  'monitorSocketAddress',
] as const;

const url = { type: 'string', pattern: '^https?://' } as const;
const schema = {
  type: 'object',
  required: ['agentId', 'agentName', 'poolId', 'serverUrl'],
  properties: {
    agentId: { type: 'integer', minimum: 0 },
    agentName: { type: 'string', minLength: 1 },
    poolId: { type: 'integer', minimum: 0 },
    poolName: { type: ['string', 'null'] },
    serverUrl: { anyOf: [url, { type: 'string', maxLength: 0 }] },
    gitHubUrl: { type: ['string', 'null'] },
    workFolder: { type: ['string', 'null'] },
    isHostedServer: { type: 'boolean' },
    useV2Flow: { type: 'boolean' },
    serverUrlV2: { anyOf: [url, { type: 'null' }] },
    ephemeral: { type: 'boolean' },
    disableUpdate: { type: 'boolean' },
    skipSessionRecover: { type: 'boolean' },
    useRunnerAdminFlow: { type: 'boolean' },
    monitorSocketAddress: { type: ['string', 'null'] },
  },
} as const;
const problemsOf = schemaProblems(schema);

/** `.runner` from its text; RunnerConfigError naming the file and each problem. */
export function parseRunnerSettings(text: string, path: string): RunnerSettings {
  const value = canonicalKeys(parseRootJson(text, path), KEYS);
  const problems = problemsOf(value);
  if (problems.length > 0) throw new RunnerConfigError(`${path} is not a runner configuration: ${problems.join('; ')}`);
  const settings = Object.fromEntries(Object.entries(value).filter(([, member]) => member !== null)) as Record<string, unknown>;
  if (settings['useV2Flow'] === true && typeof settings['serverUrlV2'] !== 'string') {
    throw new RunnerConfigError(`${path} says useV2Flow but has no serverUrlV2; configure the runner again`);
  }
  return { ...(settings as unknown as RunnerSettings), workFolder: typeof settings['workFolder'] === 'string' && settings['workFolder'] !== '' ? settings['workFolder'] : '_work' };
}

/** `.runner` text in the runner's member order, default-valued flags left out (`isHostedServer` only when false). */
export function formatRunnerSettings(settings: RunnerSettings): string {
  const out: Record<string, unknown> = {};
  for (const key of KEYS) {
    const value = settings[key];
    if (value === undefined || value === null) continue;
    if (key === 'isHostedServer' ? value !== false : value === false) continue;
    out[key] = value;
  }
  return JSON.stringify(out, null, 2);
}

export async function readRunnerSettings(root: RunnerRoot): Promise<RunnerSettings | undefined> {
  const text = await root.readText(ROOT_FILES.settings);
  return text === undefined ? undefined : parseRunnerSettings(text, root.path(ROOT_FILES.settings));
}

export async function writeRunnerSettings(root: RunnerRoot, settings: RunnerSettings): Promise<void> {
  await root.writeOwnerOnly(ROOT_FILES.settings, formatRunnerSettings(settings));
}

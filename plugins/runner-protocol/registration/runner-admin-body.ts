import { InputError } from '../../../core/kernel/index.js';
import { MAX_AGENT_NAME, parseAgentLabels, type AgentBody } from '../agents/index.js';
import { parseRunnerUrl, scopeUrlOf } from './registration-route.js';
import { MAX_XML_KEY_LENGTH, parseXmlRsaPublicKey } from './xml-rsa-key.js';

/** `POST {api}/actions/runners/register` (§1.7 step 3), as the runner sends it. */
export interface RunnerAdminRegisterBody {
  url: string;
  group_id: number;
  name: string;
  version?: string;
  updates_disabled?: boolean;
  ephemeral?: boolean;
  labels?: unknown[];
  public_key: string;
  runner_id?: number;
  replace?: boolean;
}

/** Shapes and limits; what a schema cannot say (the URL, labels, the key) is checked by the parser. */
export const runnerAdminRegisterSchema = {
  type: 'object',
  required: ['url', 'group_id', 'name', 'public_key'],
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 2048 },
    group_id: { type: 'integer', minimum: 0 },
    name: { type: 'string', minLength: 1, maxLength: MAX_AGENT_NAME, pattern: '^[^\\u0000-\\u001f\\u007f]+$' },
    version: { type: 'string', maxLength: 64 },
    updates_disabled: { type: 'boolean' },
    ephemeral: { type: 'boolean' },
    labels: { type: 'array', maxItems: 256, items: { type: 'object' } },
    public_key: { type: 'string', minLength: 1, maxLength: MAX_XML_KEY_LENGTH },
    runner_id: { type: 'integer', minimum: 1 },
    replace: { type: 'boolean' },
  },
} as const;

/** What a runner-admin registration asks for, in the registry's terms. */
export interface RunnerAdminRegistration {
  /** The runner's `--url` (owner, repository or enterprise), kept with the runner. */
  readonly scopeUrl: string;
  /** The runner group; with `replace`, 0 keeps the runner's group. */
  readonly poolId: number;
  readonly agent: AgentBody;
  /** The runner to replace (`replace: true` with `runner_id`). */
  readonly replaceId: number | undefined;
}

/** Validates the body the schema let through; bad input is a 400 naming the field. */
export function parseRunnerAdminBody(body: RunnerAdminRegisterBody): RunnerAdminRegistration {
  if (body.name.trim() === '') throw new InputError('name must not be blank', { code: 'invalid_runner' });
  if (body.replace === true && body.runner_id === undefined) {
    throw new InputError('replace: true needs runner_id, the id of the runner to replace (GET .../runners?name=)', { code: 'invalid_runner' });
  }
  if (body.replace !== true && body.runner_id !== undefined) {
    throw new InputError('runner_id is only read with replace: true; send both to replace that runner, or neither to register a new one', { code: 'invalid_runner' });
  }
  return {
    scopeUrl: scopeUrlOf(parseRunnerUrl(body.url)),
    poolId: body.group_id,
    agent: {
      name: body.name,
      version: body.version ?? '',
      osDescription: '',
      labels: parseAgentLabels(body.labels ?? []),
      publicKey: parseXmlRsaPublicKey(body.public_key),
      ephemeral: body.ephemeral ?? false,
      disableUpdate: body.updates_disabled ?? false,
    },
    replaceId: body.replace === true ? body.runner_id : undefined,
  };
}

import { arch } from 'node:process';
import type { FastifyInstance } from 'fastify';
import { BUILT_IN_POOL_ID } from '../store/index.js';
import type { RunnerUrls } from '../urls/index.js';
import type { JitProvisioner } from './jit-provisioner.js';
import { restRunner } from './rest-runner.js';

/** Under `/api/v1` (system bearer): the operator's way to mint a runner for `run --jitconfig`. */
export const JIT_PATH = '/runners/generate-jitconfig';

const bodySchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^\\u0000-\\u001f\\u007f]+$' },
    labels: { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 255 } },
    runner_group_id: { type: 'integer', minimum: 1 },
    work_folder: { type: 'string', minLength: 1, maxLength: 1024 },
    url: { type: 'string', pattern: '^https?://' },
  },
} as const;

interface JitBody {
  name: string;
  labels?: string[];
  runner_group_id?: number;
  work_folder?: string;
  url?: string;
}

/** The built-in pool's guests are Linux on the host's architecture. */
export function defaultJitLabels(): string[] {
  const architecture = arch === 'arm64' ? 'ARM64' : arch === 'arm' ? 'ARM' : arch === 'ia32' ? 'X86' : 'X64';
  return ['self-hosted', 'Linux', architecture];
}

/**
 * `POST /api/v1/runners/generate-jitconfig` (shaped like the forge's route of that name): body
 * `{name, labels?, runner_group_id? (default: the built-in pool), work_folder?, url?}`; answers
 * `201 {runner, encoded_jit_config}`. `409 runner_exists` when the name is taken in that group.
 */
export function registerJitRoute(app: FastifyInstance, deps: { readonly provisioner: JitProvisioner; readonly urls: RunnerUrls }): void {
  app.post<{ Body: JitBody }>(JIT_PATH, { schema: { body: bodySchema } }, async (request, reply) => {
    const body = request.body;
    const result = await deps.provisioner.provision({
      name: body.name,
      labels: body.labels ?? defaultJitLabels(),
      poolId: body.runner_group_id ?? BUILT_IN_POOL_ID,
      workFolder: body.work_folder ?? '_work',
      base: deps.urls.base(request),
      ...(body.url === undefined ? {} : { gitHubUrl: body.url.replace(/\/+$/, '') }),
    });
    const { agent, pool } = result;
    request.log.info({ runnerId: agent.id, runner: agent.name, poolId: pool.id }, 'JIT runner registered');
    // The built-in pool's guests are Linux, whatever labels they were given.
    return reply.status(201).send({ runner: restRunner(agent, pool, 'linux'), encoded_jit_config: result.encodedJitConfig });
  });
}

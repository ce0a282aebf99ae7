import type { FastifyInstance } from 'fastify';
import type { SystemAuth } from '../../../core/kernel/index.js';
import type { AgentRegistry } from '../agents/index.js';
import { checkRegistrationCredential, type RegistrationPolicy } from '../auth/index.js';
import type { AgentsStore, PoolRecord, PoolsStore } from '../store/index.js';
import { brokerUrl, tokenUrl, type RunnerUrls } from '../urls/index.js';
import { restRunner, restRunnerGroup } from './rest-runner.js';
import { parseRunnerAdminBody, runnerAdminRegisterSchema, type RunnerAdminRegisterBody } from './runner-admin-body.js';

/**
 * `{api}` of a GHES-style host (§0.7: any host but github.com and its kin), where the runner sends
 * the runner-admin calls. The official runner builds it from the `--url` scheme and host without
 * the port, like the runner-registration URL (see the README's known limit).
 */
export const RUNNER_ADMIN_API = '/api/v3';
export const RUNNER_ADMIN_REGISTER_PATH = `${RUNNER_ADMIN_API}/actions/runners/register`;

/** `{entity}` (§1.7): the `--url` scope as an API path (organisation, repository, enterprise). */
export const RUNNER_ADMIN_ENTITIES = [
  `${RUNNER_ADMIN_API}/repos/:owner/:repo/actions`,
  `${RUNNER_ADMIN_API}/orgs/:org/actions`,
  `${RUNNER_ADMIN_API}/enterprises/:enterprise/actions`,
] as const;

export interface RunnerAdminDeps {
  readonly policy: RegistrationPolicy;
  readonly systemAuth: SystemAuth;
  readonly urls: RunnerUrls;
  readonly pools: PoolsStore;
  readonly agents: AgentsStore;
  readonly registry: AgentRegistry;
}

const listQuery = { type: 'object', properties: { name: { type: 'string', maxLength: 255 } } } as const;
const runnerParams = { type: 'object', required: ['runnerId'], properties: { runnerId: { type: 'integer', minimum: 1 } } } as const;

/**
 * The runner-admin ("v2") registration (§1.7), where `config.sh` goes when runner-registration
 * answers `use_v2_flow: true` (SVC_RUNNER_FLOW=broker). Every call carries
 * `Authorization: RemoteAuth <registration token>`, checked like runner-registration.
 *
 * - `GET {entity}/runner-groups`, `GET {entity}/runners?name=`: the groups and the runner of that
 *   name (any casing, any group: names are one namespace, as on the legacy path).
 * - `POST {api}/actions/runners/register`: registers (201) or, with `replace` + `runner_id`,
 *   replaces (200) through the same agent registry as the agents resource and JIT; answers the
 *   runner with `authorization` {`authorization_url` = our OAuth token URL, `server_url` = the
 *   broker, `client_id`}, which the runner turns into its OAuth credential and broker settings.
 * - `DELETE {entity}/runners/{id}`: `config.sh remove` of a runner configured this way (204).
 *
 * Runner groups are not owned by an entity in svc: the entity in the path is accepted as the
 * runner sends it, and the system token (the registration credential) covers every group.
 */
export function registerRunnerAdminRoutes(app: FastifyInstance, deps: RunnerAdminDeps): void {
  app.addHook('onRequest', async (request) => {
    checkRegistrationCredential(request, deps.policy, deps.systemAuth);
  });
  const poolsById = async (): Promise<Map<number, PoolRecord>> => new Map((await deps.pools.list()).map((pool) => [pool.id, pool]));

  for (const entity of RUNNER_ADMIN_ENTITIES) {
    app.get(`${entity}/runner-groups`, async () => {
      const groups = (await deps.pools.list()).map(restRunnerGroup);
      return { total_count: groups.length, runner_groups: groups };
    });

    app.get<{ Querystring: { name?: string } }>(`${entity}/runners`, { schema: { querystring: listQuery } }, async (request) => {
      const { name } = request.query;
      const found = name === undefined || name === '' ? await deps.agents.list(0) : await deps.agents.findByName(name, 0);
      const pools = await poolsById();
      const runners = found.map((agent) => restRunner(agent, pools.get(agent.poolId)));
      return { total_count: runners.length, runners };
    });

    app.delete<{ Params: { runnerId: number } }>(`${entity}/runners/:runnerId`, { schema: { params: runnerParams } }, async (request, reply) => {
      await deps.registry.remove(request.params.runnerId);
      request.log.info({ runnerId: request.params.runnerId }, 'runner removed (runner-admin)');
      return reply.status(204).send();
    });
  }

  app.post<{ Body: RunnerAdminRegisterBody }>(RUNNER_ADMIN_REGISTER_PATH, { schema: { body: runnerAdminRegisterSchema } }, async (request, reply) => {
    const wanted = parseRunnerAdminBody(request.body);
    const base = deps.urls.base(request);
    const input = { poolId: wanted.poolId, agent: wanted.agent, scopeUrl: wanted.scopeUrl, authorizationUrl: tokenUrl(base) };
    const agent = wanted.replaceId === undefined ? await deps.registry.register(input) : await deps.registry.replace(wanted.replaceId, input);
    const replaced = wanted.replaceId !== undefined;
    request.log.info(
      { runnerId: agent.id, runner: agent.name, poolId: agent.poolId, ephemeral: agent.ephemeral, scope: wanted.scopeUrl },
      replaced ? 'runner replaced (runner-admin)' : 'runner registered (runner-admin)',
    );
    return reply.status(replaced ? 200 : 201).send({
      ...restRunner(agent, await deps.pools.get(agent.poolId)),
      authorization: { authorization_url: agent.authorizationUrl, server_url: brokerUrl(base), client_id: agent.clientId, legacy_authorization_url: null },
    });
  });
}

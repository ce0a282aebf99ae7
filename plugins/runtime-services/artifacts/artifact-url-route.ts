import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AuthError, NotFoundError, type SystemAuth } from '../../../core/kernel/index.js';
import { ArtifactParams, idErrorFormatter, sendArtifact } from './artifact-api-routes.js';
import type { RunArtifacts } from './run-artifacts.js';

/** The path upload-artifact prints as the artifact's URL: `<server_url>/<owner>/<repo>/actions/runs/<run_id>/artifacts/<artifact_id>`. */
const ARTIFACT_URL_PATH = '/:owner/:repo/actions/runs/:run_id/artifacts/:artifact_id';

const UrlParams = {
  ...ArtifactParams,
  required: ['owner', 'repo', ...ArtifactParams.required],
  properties: { owner: { type: 'string', minLength: 1 }, repo: { type: 'string', minLength: 1 }, ...ArtifactParams.properties },
} as const;

interface UrlRoute {
  Params: { owner: string; repo: string; run_id: number; artifact_id: number };
}

/**
 * What GET of the artifact URL does here (on GitHub it downloads the zip for a signed-in user):
 * with the system bearer, the artifact as `GET /api/v1/runs/{run_id}/artifacts/{id}/zip`
 * answers it; without (a browser, a plain curl), `401` saying how to get it instead. The run
 * must be of the URL's repository. Served on TCP only: it is for people, not jobs.
 */
export function registerArtifactUrlRoute(app: FastifyInstance, deps: { readonly artifacts: RunArtifacts; readonly systemAuth: SystemAuth }): void {
  const { artifacts, systemAuth } = deps;
  app.setSchemaErrorFormatter(idErrorFormatter);

  // Before the params are checked: nobody without the token learns which runs exist.
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization;
    if (header !== undefined && systemAuth.verifyHeader(header)) return;
    reply.header('www-authenticate', 'Bearer realm="svc"');
    const why = header === undefined ? 'this artifact URL needs the server\'s system token' : 'the Authorization header does not carry the server\'s system token';
    throw new AuthError(`${why}: ${howToGet(request)}`, { code: header === undefined ? 'missing_credential' : 'invalid_credential' });
  });

  app.get<UrlRoute>(ARTIFACT_URL_PATH, { schema: { params: UrlParams } }, async (request, reply) => {
    const { owner, repo, run_id: runId, artifact_id: artifactId } = request.params;
    const run = await artifacts.run(runId);
    const repository = `${owner}/${repo}`;
    if (run.repository.toLowerCase() !== repository.toLowerCase()) {
      throw new NotFoundError(`run ${runId} is a run of ${run.repository}, not of ${repository}`, { code: 'run_not_found' });
    }
    return sendArtifact(reply, await artifacts.open(run, artifactId));
  });
}

/** The two ways that work: this URL with the token, or the CLI (which finds the server and the token itself). */
function howToGet(request: FastifyRequest): string {
  // Not checked yet (this runs before validation): the URL's text, when it is an id.
  const raw = (request.params as Readonly<Record<string, string | undefined>>)['run_id'] ?? '';
  const runId = /^\d{1,15}$/.test(raw) ? raw : '<RUN_ID>';
  return `send it as "Authorization: Bearer <token>" (e.g. curl -H "Authorization: Bearer $SVC_TOKEN" -OJ <this URL>), or use the CLI: \`svc artifacts list ${runId}\` shows the run's artifacts and \`svc artifacts download ${runId} --name <name>\` unpacks one`;
}

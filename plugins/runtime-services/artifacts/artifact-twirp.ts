import type { FastifyInstance } from 'fastify';
import type { Logger } from '../../../core/kernel/index.js';
import type { RuntimeAuth } from '../auth/index.js';
import { int64, registerTwirpService, timestamp, type TwirpMethod } from '../twirp/index.js';
import type { ArtifactService, BackendIds } from './artifact-service.js';

/** `@actions/artifact` v2+ (upload-artifact@v4, download-artifact@v4). */
export const ARTIFACT_TWIRP_SERVICE = 'github.actions.results.api.v1.ArtifactService';

const id = { type: 'string', minLength: 1, maxLength: 200 } as const;
const name = { type: 'string', maxLength: 4096 } as const;
const int64Value = { anyOf: [{ type: 'string', pattern: '^-?[0-9]+$' }, { type: 'integer' }] } as const;
const idProperties = { workflow_run_backend_id: id, workflow_job_run_backend_id: id } as const;
const idsRequired = ['workflow_run_backend_id', 'workflow_job_run_backend_id'] as const;

interface IdsBody {
  readonly workflow_run_backend_id: string;
  readonly workflow_job_run_backend_id: string;
}
interface NamedBody extends IdsBody {
  readonly name: string;
}
interface CreateBody extends NamedBody {
  readonly expires_at?: string;
  readonly mime_type?: string;
  readonly version?: number;
}
interface FinalizeBody extends NamedBody {
  readonly size?: string | number;
  readonly hash?: string;
}
interface ListBody extends IdsBody {
  readonly name_filter?: string;
  readonly id_filter?: string | number;
}

const ids = (body: IdsBody): BackendIds => ({ runBackendId: body.workflow_run_backend_id, jobBackendId: body.workflow_job_run_backend_id });

/**
 * `CreateArtifact`, `FinalizeArtifact`, `ListArtifacts`, `GetSignedArtifactURL`, `DeleteArtifact`
 * over the artifact service. Wrapper types travel as plain JSON values (`mime_type`, `hash`,
 * `name_filter` strings, `id_filter` an int64 string, `expires_at` RFC 3339).
 */
export function registerArtifactTwirp(app: FastifyInstance, deps: { readonly auth: RuntimeAuth; readonly artifacts: ArtifactService; readonly logger: Logger }): void {
  const { auth, artifacts } = deps;

  const create: TwirpMethod<CreateBody> = {
    schema: {
      type: 'object',
      required: [...idsRequired, 'name'],
      properties: { ...idProperties, name, expires_at: { type: 'string', maxLength: 64 }, mime_type: { type: 'string', maxLength: 255 }, version: { type: 'integer' } },
    },
    async handle(body, request) {
      const url = await artifacts.create(auth.jobOf(request), {
        ...ids(body),
        name: body.name,
        expiresAt: timestamp(body.expires_at, 'expires_at'),
        mimeType: body.mime_type,
      });
      return { ok: true, signed_upload_url: url };
    },
  };

  const finalize: TwirpMethod<FinalizeBody> = {
    schema: { type: 'object', required: [...idsRequired, 'name'], properties: { ...idProperties, name, size: int64Value, hash: { type: 'string', maxLength: 200 } } },
    async handle(body, request) {
      const size = int64(body.size, 'size') ?? 0;
      const artifact = await artifacts.finalize(auth.jobOf(request), { ...ids(body), name: body.name, size, hash: body.hash });
      return { ok: true, artifact_id: String(artifact.id) };
    },
  };

  const list: TwirpMethod<ListBody> = {
    schema: { type: 'object', required: idsRequired, properties: { ...idProperties, name_filter: name, id_filter: int64Value } },
    async handle(body, request) {
      const job = auth.jobOf(request);
      const idFilter = int64(body.id_filter, 'id_filter');
      const found = await artifacts.list(job, {
        ...ids(body),
        ...(body.name_filter === undefined ? {} : { name: body.name_filter }),
        ...(idFilter === undefined ? {} : { id: idFilter }),
      });
      return {
        artifacts: found.map((artifact) => ({
          // The run as the caller knows it: artifacts of earlier attempts belong to the same run.
          workflow_run_backend_id: job.planId,
          workflow_job_run_backend_id: artifact.jobRecordId,
          database_id: String(artifact.id),
          name: artifact.name,
          size: String(artifact.size ?? 0),
          created_at: new Date(artifact.finalizedAt ?? artifact.createdAt).toISOString(),
          ...(artifact.digest === null ? {} : { digest: artifact.digest }),
        })),
      };
    },
  };

  const signedUrl: TwirpMethod<NamedBody> = {
    schema: { type: 'object', required: [...idsRequired, 'name'], properties: { ...idProperties, name } },
    async handle(body, request) {
      return { signed_url: await artifacts.downloadUrl(auth.jobOf(request), { ...ids(body), name: body.name }) };
    },
  };

  const remove: TwirpMethod<NamedBody> = {
    schema: { type: 'object', required: [...idsRequired, 'name'], properties: { ...idProperties, name } },
    async handle(body, request) {
      const artifact = await artifacts.remove(auth.jobOf(request), { ...ids(body), name: body.name });
      return { ok: true, artifact_id: String(artifact.id) };
    },
  };

  auth.guard(app);
  registerTwirpService(
    app,
    ARTIFACT_TWIRP_SERVICE,
    { CreateArtifact: create, FinalizeArtifact: finalize, ListArtifacts: list, GetSignedArtifactURL: signedUrl, DeleteArtifact: remove },
  );
}

/**
 * `resources.endpoints[SystemVssConnection]`: where the Worker reports and with which token,
 * and (`data`) the service URLs it hands to actions (`ACTIONS_RUNTIME_URL`, `ACTIONS_CACHE_URL`,
 * `ACTIONS_RESULTS_URL`, `ACTIONS_ID_TOKEN_REQUEST_URL`) — all this server's, with the key set
 * github.com sends. Connectivity probes (hosted telemetry) are empty, so the runner skips them.
 */
import type { JsonObject } from '../../../core/protocol/index.js';
import type { Permissions } from '../../../core/workflow/index.js';
import type { ServerUrls } from './types.js';

/** The OIDC token endpoint (served by the runtime-services plugin): `<path>/<planId>/<jobId>?api-version=2.0`. */
export const ID_TOKEN_PATH = '/_apis/oidc/idtoken';

/** The service URLs of one job, resolved from ServerUrls (each with the trailing `/` the runner needs). */
export interface ResolvedUrls {
  readonly api: string;
  readonly cache: string;
  readonly results: string;
  readonly feedStream: string;
  readonly launch: string;
  readonly idToken: string;
}

export function resolveUrls(urls: ServerUrls, ids: { readonly planId: string; readonly jobId: string }, permissions: Permissions | undefined): ResolvedUrls {
  const api = withSlash(urls.api);
  const origin = new URL(urls.publicUrl).origin;
  const idTokenBase = urls.idToken ?? `${origin}${ID_TOKEN_PATH}`;
  const idToken = permissions?.['id-token'] === 'write' ? `${idTokenBase.replace(/\/+$/, '')}/${ids.planId}/${ids.jobId}?api-version=2.0` : '';
  return {
    api,
    // The runtime-services plugin serves cache v1 (`_apis/artifactcache/...`) at the root.
    cache: withSlash(urls.cache ?? origin),
    results: withSlash(urls.results ?? origin),
    feedStream: urls.feedStream ?? '',
    launch: urls.launch ?? origin,
    idToken,
  };
}

export function systemConnection(urls: ResolvedUrls, accessToken: string): JsonObject {
  return {
    data: {
      ServerId: '',
      ServerName: '',
      CacheServerUrl: urls.cache,
      FeedStreamUrl: urls.feedStream,
      ResultsServiceUrl: urls.results,
      PipelinesServiceUrl: urls.api,
      GenerateIdTokenUrl: urls.idToken,
      ConnectivityChecks: '',
      ConnectivityAndDNSChecks: '',
    },
    name: 'SystemVssConnection',
    url: urls.api,
    authorization: { scheme: 'OAuth', parameters: { AccessToken: accessToken } },
    isShared: false,
    isReady: true,
  };
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/**
 * Action download info (RUNNER-PROTOCOL.md §5.5): one batch of `owner/repo@ref` answered with
 * the commit each resolves to and the URL of its tarball, on the wire of the job's mode:
 *
 * - legacy: `POST <SystemVssConnection>/{scopeIdentifier}/_apis/distributedtask/hubs/{hubName}/plans/{planId}/actiondownloadinfo?jobId=`
 *   (the route template read from connectionData, location `27d7f831-…`), camelCase;
 * - run service: `POST <origin of system.github.launch_endpoint>/actions/build/{planId}/jobs/{jobId}/runnerresolve/actions`,
 *   snake_case; a 422 names, per action, why it cannot be resolved.
 *
 * Both with the job token as Bearer, 3 attempts on network errors and 5xx (not on 4xx).
 */
import type { ActionServer } from '../handlers/index.js';
import { ActionResolveError, describeFailure, fetchWithRetry, type HttpSettings } from './http-retry.js';

export const ACTION_DOWNLOAD_LOCATION = '27d7f831-88c1-4719-8ca1-6a061dad90eb';
const DEFAULT_TEMPLATE = '{scopeIdentifier}/_apis/distributedtask/hubs/{hubName}/plans/{planId}/actiondownloadinfo';

export interface ActionRequest {
  readonly nameWithOwner: string;
  readonly ref: string;
  readonly path: string;
}

export interface DownloadInfo {
  readonly nameWithOwner: string;
  readonly resolvedNameWithOwner: string;
  readonly ref: string;
  readonly resolvedSha: string;
  readonly tarballUrl: string;
  /** A token for the download; the job's `github.token` when absent. */
  readonly token?: string;
}

/** `owner/repo@ref`, the key of the answer. */
export function requestKey(request: Pick<ActionRequest, 'nameWithOwner' | 'ref'>): string {
  return `${request.nameWithOwner}@${request.ref}`;
}

function object(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function expand(template: string, values: Readonly<Record<string, string>>): string {
  return template
    .split('/')
    .map((part) => part.replace(/\{\*?([^}]+)\}/g, (_match, name: string) => encodeURIComponent(values[name.toLowerCase()] ?? '')))
    .filter((part) => part !== '')
    .join('/');
}

function joinUrl(base: string, relative: string): URL {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${relative.replace(/^\/+/, '')}`;
  return url;
}

/** The route template by server (connectionData is read once per job). */
const templates = new WeakMap<ActionServer, Promise<string>>();

function legacyTemplate(server: ActionServer, http: HttpSettings): Promise<string> {
  let template = templates.get(server);
  if (template === undefined) {
    template = readLegacyTemplate(server, http);
    templates.set(server, template);
    template.catch(() => templates.delete(server));
  }
  return template;
}

async function readLegacyTemplate(server: ActionServer, http: HttpSettings): Promise<string> {
  const url = joinUrl(server.url, '_apis/connectionData');
  url.search = 'connectOptions=1&lastChangeId=-1&lastChangeId64=-1';
  const response = await fetchWithRetry(http, url.href, { method: 'GET', headers: { authorization: `Bearer ${server.accessToken}`, accept: 'application/json' } });
  if (!response.ok) throw new ActionResolveError(`GET ${url.origin}${url.pathname} answered ${response.status}: ${describeFailure(await response.text())}`);
  const body = object(await response.json());
  const definitions = object(body['locationServiceData'])['serviceDefinitions'];
  for (const entry of Array.isArray(definitions) ? definitions : []) {
    const definition = object(entry);
    if (String(definition['identifier']).toLowerCase() === ACTION_DOWNLOAD_LOCATION && typeof definition['relativePath'] === 'string') return definition['relativePath'];
  }
  return DEFAULT_TEMPLATE;
}

function infoFrom(key: string, raw: unknown, snake: boolean): DownloadInfo {
  const entry = object(raw);
  const get = (camel: string, snakeName: string) => text(entry[snake ? snakeName : camel]);
  const nameWithOwner = get('nameWithOwner', 'name');
  const resolvedSha = get('resolvedSha', 'resolved_sha');
  const tarballUrl = get('tarballUrl', 'tar_url');
  const ref = get('ref', 'version');
  if (nameWithOwner === undefined || resolvedSha === undefined || tarballUrl === undefined || ref === undefined) {
    throw new ActionResolveError(`the server's download info for ${key} lacks its name, commit or tarball URL`);
  }
  const token = text(object(entry['authentication'])['token']);
  return { nameWithOwner, resolvedNameWithOwner: get('resolvedNameWithOwner', 'resolved_name') ?? nameWithOwner, ref, resolvedSha, tarballUrl, ...(token === undefined ? {} : { token }) };
}

/** Resolves one batch; the answer is keyed `owner/repo@ref` as asked. Throws ActionResolveError worded for the log. */
export async function resolveDownloadInfo(server: ActionServer, requests: readonly ActionRequest[], http: HttpSettings): Promise<Map<string, DownloadInfo>> {
  const snake = server.mode === 'run-service';
  let url: string;
  let body: unknown;
  if (snake) {
    if (server.launchUrl === undefined || server.launchUrl === '') {
      throw new ActionResolveError('the job message has no system.github.launch_endpoint: remote actions cannot be resolved on the run-service wire');
    }
    url = new URL(`/actions/build/${encodeURIComponent(server.planId)}/jobs/${encodeURIComponent(server.jobId)}/runnerresolve/actions`, server.launchUrl).href;
    body = {
      actions: requests.map((request) => ({ action: request.nameWithOwner, version: request.ref, path: request.path })),
      ...(server.dependencies === undefined || server.dependencies.length === 0 ? {} : { actions_dependencies: server.dependencies }),
    };
  } else {
    const template = await legacyTemplate(server, http);
    const values = { scopeidentifier: server.scopeIdentifier, hubname: server.hubName, planid: server.planId, area: 'distributedtask', resource: 'actiondownloadinfo' };
    const target = joinUrl(server.url, expand(template, values));
    target.searchParams.set('jobId', server.jobId);
    url = target.href;
    body = { actions: requests.map((request) => ({ nameWithOwner: request.nameWithOwner, ref: request.ref, path: request.path })) };
  }
  const response = await fetchWithRetry(http, url, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.accessToken}`, accept: 'application/json', 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(body),
  });
  const answer = await response.text();
  const keys = requests.map(requestKey).join(', ');
  if (response.status === 422 && snake) {
    const errors = object(object(JSON.parse(answer || '{}'))['errors']);
    const messages = Object.entries(errors).map(([key, value]) => `${key}: ${text(object(value)['message']) ?? 'unresolvable'}`);
    throw new ActionResolveError(`Unable to resolve action(s): ${messages.length > 0 ? messages.join('; ') : keys}`);
  }
  if (!response.ok) {
    throw new ActionResolveError(`Unable to resolve action ${keys}: the server answered ${response.status} (${describeFailure(answer) || response.statusText})`, {
      unsupported: response.status === 501,
    });
  }
  const actions = object(object(JSON.parse(answer))['actions']);
  const infos = new Map<string, DownloadInfo>();
  for (const request of requests) {
    const key = requestKey(request);
    const raw = actions[key];
    if (raw === undefined) throw new ActionResolveError(`Unable to resolve action ${key}: the server's answer does not include it`);
    infos.set(key, infoFrom(key, raw, snake));
  }
  return infos;
}

/**
 * The parts of the official runner's VSS HTTP stack a scripted client needs (RUNNER-PROTOCOL.md
 * §0.3, §0.6, §1.3): resource locations from connectionData, route-template expansion, and
 * response rules (JSON content type, wrapped lists, wrapped exceptions).
 */
import assert from 'node:assert/strict';

export interface ResourceLocation {
  readonly id: string;
  readonly area: string;
  readonly resource: string;
  readonly routeTemplate: string;
  readonly resourceVersion: number;
}

export interface HttpResult {
  readonly status: number;
  readonly headers: Headers;
  /** Parsed JSON body, or undefined for an empty body. */
  readonly body: unknown;
}

/** The runner's URL rules, shared with svc-runner (core/protocol). */
export { expandRoute, vssUrl } from '../../core/protocol/index.js';

export function locationsOf(connectionData: unknown): Map<string, ResourceLocation> {
  const data = connectionData as { locationServiceData?: { serviceDefinitions?: Record<string, unknown>[] } };
  const definitions = data.locationServiceData?.serviceDefinitions;
  assert.ok(Array.isArray(definitions), 'connectionData has locationServiceData.serviceDefinitions');
  const locations = new Map<string, ResourceLocation>();
  for (const definition of definitions) {
    const resourceVersion = Number(definition['resourceVersion'] ?? 0);
    if (resourceVersion <= 0) continue;
    const id = String(definition['identifier']).toLowerCase();
    assert.ok(!locations.has(id), `location ${id} is advertised twice (the runner refuses duplicate ids)`);
    locations.set(id, {
      id,
      area: String(definition['serviceType']),
      resource: String(definition['displayName']),
      routeTemplate: String(definition['relativePath']),
      resourceVersion,
    });
  }
  return locations;
}

/** The runner unwraps `{count, value}` for every list-typed response. */
export function unwrap<T>(body: unknown): T[] {
  const list = body as { count?: unknown; value?: unknown };
  assert.ok(Array.isArray(list.value), `a wrapped list {count, value}, got ${JSON.stringify(body)}`);
  assert.equal(list.count, list.value.length, 'count equals the number of values');
  return list.value as T[];
}

/** Calls as the runner makes them; a non-empty body must be JSON (the runner refuses anything else). */
export async function send(
  log: string[],
  method: string,
  url: string,
  options: { readonly headers?: Record<string, string>; readonly json?: unknown; readonly form?: Record<string, string>; readonly signal?: AbortSignal } = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { 'user-agent': 'GitHubActionsRunner-linux-x64/2.337.0 (scripted)', ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json; charset=utf-8; api-version=6.0-preview.2';
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  if (headers['accept'] === undefined) headers['accept'] = 'application/json;api-version=6.0-preview.2';
  const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }), ...(options.signal === undefined ? {} : { signal: options.signal }) });
  const text = await response.text();
  log.push(`${method} ${new URL(url).pathname} ${response.status}`);
  if (text === '') return { status: response.status, headers: response.headers, body: undefined };
  const type = response.headers.get('content-type') ?? '';
  assert.match(type, /^application\/json\b/i, `${method} ${url} answered ${response.status} with Content-Type '${type}': ${text}`);
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as unknown };
}

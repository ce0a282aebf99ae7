/**
 * The runner's location service (RUNNER-PROTOCOL.md §0.6, §1.3): it never hard-codes an `_apis`
 * path; each VSS call names a location GUID, resolved to a route template through the
 * connectionData of the connection's base URL. Replayed the same way, so a scenario works with
 * whatever templates the server advertises.
 */
import type { JsonValue } from './scenario-types.js';

export interface ResourceLocation {
  readonly id: string;
  readonly area: string;
  readonly resource: string;
  readonly routeTemplate: string;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The connectionData's resources, by lower-case GUID; `undefined` with the reason when it is not usable. */
export function locationsOf(connectionData: JsonValue | undefined): { locations?: Map<string, ResourceLocation>; error?: string } {
  const data = connectionData as { locationServiceData?: { serviceDefinitions?: unknown } } | null | undefined;
  const definitions = data?.locationServiceData?.serviceDefinitions;
  if (!Array.isArray(definitions)) return { error: 'connectionData has no locationServiceData.serviceDefinitions list' };
  const locations = new Map<string, ResourceLocation>();
  for (const definition of definitions as Record<string, unknown>[]) {
    if (Number(definition['resourceVersion'] ?? 0) <= 0) continue;
    const id = String(definition['identifier']).toLowerCase();
    // The runner's location cache keys definitions by id: a duplicate makes it throw.
    if (locations.has(id)) return { error: `connectionData advertises location ${id} twice` };
    locations.set(id, { id, area: String(definition['serviceType']), resource: String(definition['displayName']), routeTemplate: String(definition['relativePath']) });
  }
  return { locations };
}

/** A location name (locations.yaml) or a GUID → the GUID. */
export function locationId(name: string, names: Readonly<Record<string, string>>): string | undefined {
  if (GUID.test(name)) return name.toLowerCase();
  return names[name]?.toLowerCase();
}

/** Route templates are filled by the runner's rule, shared with svc-runner (core/protocol). */
export { expandRoute } from '../../../core/protocol/index.js';

/** base path (trailing `/` trimmed) + `/` + relative route, then the base's own query (VssHttpUriUtility.ConcatUri). */
export function vssUrl(base: string, relative: string): URL {
  const url = new URL(base);
  const joined = new URL(`${url.origin}${url.pathname.replace(/\/+$/, '')}/${relative.replace(/^\/+/, '')}`);
  joined.search = url.search;
  return joined;
}

/** The key a base URL's connectionData is kept under (the runner caches it per connection URL). */
export function baseKey(base: string): string {
  const url = new URL(base);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The worker's VSS locations (§1.3, §0.6): `GET <url>/_apis/connectionData` once on the
 * SystemVssConnection URL, each call's route template looked up by its location GUID, route
 * values filled in (a segment left without a value is dropped), the result appended to the
 * base URL's path.
 */
import { expandRoute, vssUrl, type RouteValues } from '../../../core/protocol/index.js';

export type { RouteValues };
import { answerJson, httpSend, type HttpOptions } from '../http.js';

/** Location GUIDs of the worker's calls (TaskResourceIds). */
export const WORKER_LOCATIONS = {
  records: '8893bc5b-35b2-4be7-83cb-99e683551db4',
  feed: '858983e4-19bd-4c5e-864c-507b59b58b12',
  logs: '46f5667d-263a-4684-91b1-dff7fdcf64e2',
  attachments: '7898f959-9cdf-4096-b29e-7f293031629e',
  events: '557624af-b29e-4c20-8ab0-0399d2204f3f',
} as const;

export type WorkerLocation = keyof typeof WORKER_LOCATIONS;

interface Location {
  readonly area: string;
  readonly resource: string;
  readonly template: string;
}

export class VssLocations {
  readonly #http: HttpOptions;
  readonly #base: string;
  #locations: Promise<ReadonlyMap<string, Location>> | undefined;

  constructor(http: HttpOptions, base: string) {
    this.#http = http;
    this.#base = base;
  }

  /** Fetches connectionData ahead of the first call (a failure is retried by that call). */
  preload(): void {
    this.#load().catch(() => undefined);
  }

  /** The URL of a call; fetches connectionData the first time (and again after a failure). */
  async url(location: WorkerLocation, values: RouteValues, query: Readonly<Record<string, string>> = {}): Promise<string> {
    const id = WORKER_LOCATIONS[location];
    const locations = await this.#load();
    const found = locations.get(id);
    if (found === undefined) throw new Error(`the server's connectionData has no '${location}' location (${id})`);
    return vssUrl(this.#base, expandRoute(found.template, values, found.area, found.resource), query);
  }

  #load(): Promise<ReadonlyMap<string, Location>> {
    if (this.#locations === undefined) {
      this.#locations = this.#fetch();
      this.#locations.catch(() => (this.#locations = undefined));
    }
    return this.#locations;
  }

  async #fetch(): Promise<ReadonlyMap<string, Location>> {
    const url = vssUrl(this.#base, '_apis/connectionData', { connectOptions: '1', lastChangeId: '-1', lastChangeId64: '-1' });
    const body = answerJson(await httpSend(this.#http, { method: 'GET', url }));
    const definitions = (body as { locationServiceData?: { serviceDefinitions?: unknown } } | undefined)?.locationServiceData?.serviceDefinitions;
    const map = new Map<string, Location>();
    if (Array.isArray(definitions)) {
      for (const entry of definitions as Array<Record<string, unknown>>) {
        const id = typeof entry['identifier'] === 'string' ? entry['identifier'].toLowerCase() : undefined;
        const template = entry['relativePath'];
        if (id === undefined || typeof template !== 'string' || !(Number(entry['resourceVersion'] ?? 0) > 0)) continue;
        map.set(id, { area: String(entry['serviceType'] ?? ''), resource: String(entry['displayName'] ?? ''), template });
      }
    }
    return map;
  }
}

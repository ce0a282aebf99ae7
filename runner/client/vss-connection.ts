import type { HttpClient } from './http-client.js';
import { RunnerHttpError, RunnerProtocolError } from './http-error.js';
import type { RunnerTokenSource } from './oauth-token.js';
import { expandRoute, vssUrl, type LocationId, type RouteValues } from './vss-routes.js';
import { wireValidator } from './wire-schema.js';

/** How a VSS connection authenticates. */
export type VssAuth =
  /** A fixed bearer token (the tenant token of configure and remove). */
  | { readonly kind: 'bearer'; readonly token: string }
  /** The runner's OAuth credential: the token is fetched on the first 401 challenge (§1.9.1). */
  | { readonly kind: 'runner'; readonly tokens: RunnerTokenSource };

export interface ResourceLocation {
  readonly area: string;
  readonly resource: string;
  readonly routeTemplate: string;
}

export interface VssRequest {
  readonly location: LocationId;
  readonly method: string;
  readonly route?: RouteValues;
  readonly query?: Readonly<Record<string, string>>;
  readonly json?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Transport attempts; default 3 (the runner's VSS retry), 1 for long polls. */
  readonly attempts?: number;
}

interface ServiceDefinition {
  identifier: string;
  serviceType?: string;
  displayName?: string;
  relativePath?: string;
  resourceVersion?: number;
}

const connectionDataSchema = {
  type: 'object',
  required: ['locationServiceData'],
  properties: {
    locationServiceData: {
      type: 'object',
      properties: {
        serviceDefinitions: {
          type: ['array', 'null'],
          items: { type: 'object', required: ['identifier'], properties: { identifier: { type: 'string' }, relativePath: { type: ['string', 'null'] } } },
        },
      },
    },
  },
} as const;
const checkConnectionData = wireValidator<{ locationServiceData: { serviceDefinitions?: ServiceDefinition[] | null } }>(connectionDataSchema);

const optionsSchema = {
  type: 'object',
  required: ['value'],
  properties: { value: { type: 'array', items: { type: 'object', required: ['id', 'routeTemplate'] } } },
} as const;
const checkOptions = wireValidator<{ value: { id: string; area?: string; resourceName?: string; routeTemplate: string; resourceVersion?: number }[] }>(optionsSchema);

/**
 * A connection to a VSS server (the tenant URL, `serverUrl` of `.runner`): resource locations
 * from `_apis/connectionData` (fetched once, anonymously, §1.3), requests by location id, the
 * Bearer challenge, wrapped lists and wrapped exceptions.
 */
export class VssConnection {
  #locations: Promise<Map<string, ResourceLocation>> | undefined;

  constructor(
    private readonly http: HttpClient,
    readonly baseUrl: string,
    private readonly auth: VssAuth,
  ) {}

  /** Forgets the locations (the runner re-creates its connection after errors). */
  reset(): void {
    this.#locations = undefined;
  }

  locations(signal?: AbortSignal): Promise<Map<string, ResourceLocation>> {
    this.#locations ??= this.#fetchLocations(signal).catch((error: unknown) => {
      this.#locations = undefined;
      throw error;
    });
    return this.#locations;
  }

  /** The parsed JSON answer (undefined for an empty one); RunnerHttpError for any non-2xx. */
  async request(request: VssRequest): Promise<unknown> {
    const locations = await this.locations(request.signal);
    const location = locations.get(request.location);
    if (location === undefined) {
      throw new RunnerProtocolError(`${this.baseUrl} does not advertise the resource ${request.location} in _apis/connectionData; is it a runner server?`);
    }
    const url = vssUrl(this.baseUrl, expandRoute(location.routeTemplate, request.route ?? {}, location.area, location.resource), request.query);
    const send = (token: string | undefined) =>
      this.http.send({
        method: request.method,
        url,
        headers: { ...request.headers, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
        attempts: request.attempts ?? 3,
        ...(request.json === undefined ? {} : { json: request.json }),
        ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
    let answer = await send(this.#token());
    if (answer.status === 401 && this.auth.kind === 'runner') {
      answer = await send(await this.auth.tokens.refresh(request.signal));
    }
    if (answer.status < 200 || answer.status > 299) throw new RunnerHttpError(request.method, url, answer.status, answer.body, answer.text);
    return answer.body;
  }

  #token(): string | undefined {
    return this.auth.kind === 'bearer' ? this.auth.token : this.auth.tokens.current;
  }

  async #fetchLocations(signal: AbortSignal | undefined): Promise<Map<string, ResourceLocation>> {
    const url = vssUrl(this.baseUrl, '_apis/connectionData', { connectOptions: '1', lastChangeId: '-1', lastChangeId64: '-1' });
    // The OAuth credential sends no token here; a bearer credential does (§1.3).
    const headers: Record<string, string> = this.auth.kind === 'bearer' ? { authorization: `Bearer ${this.auth.token}` } : {};
    const answer = await this.http.call({ method: 'GET', url, headers, attempts: 3, ...(signal === undefined ? {} : { signal }) });
    const data = checkConnectionData(answer.body, `the connectionData of ${this.baseUrl}`);
    const locations = new Map<string, ResourceLocation>();
    for (const definition of data.locationServiceData.serviceDefinitions ?? []) {
      if ((definition.resourceVersion ?? 0) <= 0 || !definition.relativePath) continue;
      locations.set(definition.identifier.toLowerCase(), {
        area: definition.serviceType ?? '',
        resource: definition.displayName ?? '',
        routeTemplate: definition.relativePath,
      });
    }
    if (locations.size > 0) return locations;
    // No usable definitions: the client asks `OPTIONS _apis/` for the resource areas (§1.3).
    const options = await this.http.call({ method: 'OPTIONS', url: vssUrl(this.baseUrl, '_apis/'), headers, ...(signal === undefined ? {} : { signal }) });
    for (const entry of checkOptions(options.body, `OPTIONS ${this.baseUrl}_apis/`).value) {
      locations.set(entry.id.toLowerCase(), { area: entry.area ?? '', resource: entry.resourceName ?? '', routeTemplate: entry.routeTemplate });
    }
    return locations;
  }
}

/** The runner unwraps `{count, value}` for every list-typed answer (§0.3). */
export function unwrapList<T>(body: unknown, what: string): T[] {
  const list = body as { value?: unknown } | undefined;
  if (list === undefined || list === null || !Array.isArray(list.value)) throw new RunnerProtocolError(`${what}: expected a wrapped list {count, value}, got ${JSON.stringify(body)?.slice(0, 200)}`);
  return list.value as T[];
}

/**
 * Turns a request definition (already substituted) into the HTTP request the runner sends, and
 * sends it: where it goes (absolute, a raw client's relative path against a base that must end
 * with `/`, a fixed VSS path, or a VSS location through the base's connectionData), the headers every runner call
 * carries, and the body kinds (JSON, form, log page, timeline records, snapshot tar).
 */
import { lookup } from 'node:dns';
import http, { type RequestOptions } from 'node:http';
import https from 'node:https';
import { pack } from 'tar-stream';
import type { Answer } from './compare.js';
import { baseKey, expandRoute, locationId, vssUrl, type ResourceLocation } from './locations.js';
import type { BodySpec, JsonObject, JsonValue, RequestSpec } from './scenario-types.js';
import { runnerTime } from './template.js';

export interface HttpSettings {
  /** Headers every exchange carries unless it sets its own (corpus.yaml). */
  readonly headers: Readonly<Record<string, string>>;
  /** Location names → GUIDs (locations.yaml). */
  readonly locationNames: Readonly<Record<string, string>>;
  /** Every member of a timeline record the runner serializes, with its default (corpus.yaml). */
  readonly recordDefaults: JsonObject;
  /** The longest the runner waits for an answer (its HTTP timeouts are 60-100 s). */
  readonly timeoutMs: number;
}

export class RequestError extends Error {}

export interface PreparedRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body: Buffer | undefined;
}

function stringMap(value: JsonValue | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const merge = (item: JsonValue | undefined): void => {
    if (Array.isArray(item)) item.forEach(merge);
    else if (item !== null && typeof item === 'object') for (const [key, v] of Object.entries(item)) out[key] = typeof v === 'string' ? v : JSON.stringify(v);
    else if (item !== undefined && item !== null) throw new RequestError(`route values must be objects, got ${JSON.stringify(item)}`);
  };
  merge(value);
  return out;
}

async function tarOf(files: JsonValue): Promise<Buffer> {
  if (files === null || typeof files !== 'object' || Array.isArray(files)) throw new RequestError('a tar body is a map of path → content');
  const archive = pack();
  for (const [path, content] of Object.entries(files)) archive.entry({ name: path, mode: 0o644 }, typeof content === 'string' ? content : JSON.stringify(content));
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A page file as the Worker writes it: UTF-8 BOM, then `<round-trip UTC time> <text>` per line. */
export function logPage(lines: readonly string[], at = Date.now()): Buffer {
  const stamp = runnerTime(at);
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.map((line) => `${stamp} ${line}\n`).join(''), 'utf8')]);
}

async function encodeBody(body: BodySpec, defaults: JsonObject): Promise<{ type: string; bytes: Buffer }> {
  if ('json' in body) return { type: 'application/json; charset=utf-8', bytes: Buffer.from(JSON.stringify(body.json)) };
  if ('form' in body) {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(body.form)) form.set(key, typeof value === 'string' ? value : JSON.stringify(value));
    return { type: 'application/x-www-form-urlencoded', bytes: Buffer.from(form.toString()) };
  }
  if ('text' in body) return { type: 'application/octet-stream', bytes: Buffer.from(body.text, 'utf8') };
  if ('logPage' in body) {
    const lines = body.logPage.lines as unknown;
    if (!Array.isArray(lines) || !lines.every((line) => typeof line === 'string')) throw new RequestError('a log page is a list of lines');
    const at = body.logPage.at;
    const ms = at === undefined || at === null ? Date.now() : typeof at === 'number' ? at : Date.parse(String(at));
    if (!Number.isFinite(ms)) throw new RequestError(`a log page's 'at' must be a time, got ${JSON.stringify(at)}`);
    return { type: 'application/octet-stream', bytes: logPage(lines, ms) };
  }
  if ('records' in body) {
    if (!Array.isArray(body.records)) throw new RequestError('timeline records are a list');
    const value = body.records.map((record) => ({ ...defaults, ...(record as JsonObject) }));
    return { type: 'application/json; charset=utf-8', bytes: Buffer.from(JSON.stringify({ count: value.length, value })) };
  }
  return { type: 'application/x-tar', bytes: await tarOf(body.tar) };
}

function resolveUrl(request: RequestSpec, settings: HttpSettings, locations: ReadonlyMap<string, ReadonlyMap<string, ResourceLocation>>): URL {
  if (request.url !== undefined) return new URL(request.url);
  const base = request.base ?? '';
  if (request.vssPath !== undefined) return vssUrl(base, request.vssPath);
  if (request.path !== undefined) {
    // The runner's raw clients resolve relative URLs (RFC 3986): a base without the trailing `/`
    // loses its last segment, so a server handing one out breaks the runner.
    if (!base.endsWith('/')) throw new RequestError(`the base URL '${base}' does not end with '/': the runner would resolve '${request.path}' against its parent`);
    return new URL(request.path, base);
  }
  const name = request.location ?? '';
  const id = locationId(name, settings.locationNames);
  if (id === undefined) throw new RequestError(`unknown location '${name}'`);
  const known = locations.get(baseKey(base));
  if (!known) throw new RequestError(`no connectionData was read for ${base} before calling location '${name}' (the runner reads it first)`);
  const location = known.get(id);
  if (!location) throw new RequestError(`connectionData of ${base} does not advertise location '${name}' (${id})`);
  return vssUrl(base, expandRoute(location.routeTemplate, stringMap(request.route), location.area, location.resource));
}

export async function prepareRequest(request: RequestSpec, settings: HttpSettings, locations: ReadonlyMap<string, ReadonlyMap<string, ResourceLocation>>): Promise<PreparedRequest> {
  const url = resolveUrl(request, settings, locations);
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value !== null) url.searchParams.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(settings.headers)) headers[key.toLowerCase()] = value;
  let body: Buffer | undefined;
  if (request.body) {
    const encoded = await encodeBody(request.body, settings.recordDefaults);
    headers['content-type'] = encoded.type;
    body = encoded.bytes;
  }
  for (const [key, value] of Object.entries(request.headers ?? {})) {
    if (value === null) delete headers[key.toLowerCase()];
    else headers[key.toLowerCase()] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return { method: request.method, url, headers, body };
}

/**
 * RFC 6761 §6.3: a name under `.localhost` is loopback. The runner's host resolves such names
 * (systemd-resolved does); this client does it itself, so a server published as
 * `http://svc.localhost:<port>` (a host the actions toolkit treats as GitHub-like) is reachable
 * wherever the replay runs.
 */
const lookupLocalhost: NonNullable<RequestOptions['lookup']> = (hostname, options, callback) => {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
    return;
  }
  lookup(hostname, options, callback);
};

const MAX_REDIRECTS = 5;

function request(prepared: PreparedRequest, url: URL, signal: AbortSignal): Promise<{ status: number; headers: Record<string, string>; bytes: Buffer }> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(url, { method: prepared.method, headers: prepared.headers, signal, lookup: lookupLocalhost }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [key, value] of Object.entries(response.headers)) if (value !== undefined) headers[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ status: response.statusCode ?? 0, headers, bytes: Buffer.concat(chunks) });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(prepared.body);
  });
}

export async function send(prepared: PreparedRequest, timeoutMs: number, signal?: AbortSignal, followRedirects = false): Promise<Answer> {
  const started = performance.now();
  const combined = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])]);
  let url = prepared.url;
  let current = prepared;
  try {
    for (let hop = 0; ; hop++) {
      const { status, headers, bytes } = await request(current, url, combined);
      const location = headers['location'];
      if (followRedirects && status >= 300 && status < 400 && location !== undefined && hop < MAX_REDIRECTS) {
        url = new URL(location, url);
        // A redirect to another host drops the credential, as .NET's handler does.
        const { authorization: _dropped, ...rest } = current.headers;
        current = { ...current, method: status === 307 || status === 308 ? current.method : 'GET', headers: url.origin === prepared.url.origin ? current.headers : rest, body: status === 307 || status === 308 ? current.body : undefined };
        continue;
      }
      return { status, headers, text: bytes.toString('utf8'), bytes, elapsedMs: performance.now() - started };
    }
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new RequestError(`${prepared.method} ${prepared.url.pathname}: no answer (${cause})`);
  }
}

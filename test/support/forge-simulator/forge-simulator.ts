/**
 * A small real forge for tests: an HTTP server answering the REST operations of its operation
 * table (repository-operations.ts, plus any a test adds) over git repositories in a temp
 * directory, and a second server, its web host, serving the archive downloads the API redirects
 * to (another origin, as codeload is on github.com, so a client's `Authorization` must not follow)
 * and git over smart HTTP (git-http.ts: `<webUrl>/<owner>/<repo>.git`, as github.com serves it).
 *
 * Every request and every answer is checked against GitHub's OpenAPI description
 * (openapi-validator.ts). A mismatch — an unknown route, a bad parameter, a media type the
 * operation does not have, an undocumented status or a body off its schema — is answered `400`
 * (request) or `500` (answer) and recorded in `violations`; `startForgeSimulator` fails the test
 * with them. Bad credentials get the forge's `401` on any operation (the description leaves that
 * global answer out).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadDescription, type OpenApiOperation } from './openapi-description.js';
import { OpenApiValidator } from './openapi-validator.js';
import { forgeError, notFound, type ForgeContext, type OperationHandler, type OperationTable, type SimulatedRequest, type SimulatedResponse } from './operation-table.js';
import { APP_OPERATIONS, SimulatedApps } from './app-operations.js';
import type { GitRepositories, Repository } from './git-repositories.js';
import { isGitPath, serveGit, type GitHttpRecord } from './git-http.js';
import { codeload, REPOSITORY_OPERATIONS } from './repository-operations.js';

export interface ForgeSimulatorOptions {
  /** The credential the forge accepts (`Bearer`/`token`); private repositories need it. */
  readonly token?: string;
  /** More operations by operationId (over the built-in ones). */
  readonly operations?: OperationTable;
  /** Which description of `@octokit/openapi` (`api.github.com`, `ghes-3.19`, ...). */
  readonly description?: string;
  /** The API's path prefix: `''` as api.github.com, `/api/v3` as GitHub Enterprise Server. */
  readonly apiPrefix?: string;
  /** The forge's clock for App JWT and token expiry (epoch ms); the real one by default. */
  readonly now?: () => number;
}

export interface ForgeRequestRecord {
  /** The operationId, or `codeload` for an archive download from the web host. */
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly authorization: string | undefined;
}

interface Route {
  readonly operation: OpenApiOperation;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly handler: OperationHandler;
}

function routeOf(operation: OpenApiOperation, handler: OperationHandler): Route {
  const names: string[] = [];
  const source = operation.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    names.push(name);
    const multi = operation.parameters.some((parameter) => parameter.in === 'path' && parameter.name === name && parameter['x-multi-segment'] === true);
    return multi ? '(.+)' : '([^/]+)';
  });
  return { operation, pattern: new RegExp(`^${source}$`), names, handler };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return query;
}

function serialize(answer: SimulatedResponse): { readonly body: Buffer; readonly headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = value;
  if (answer.json !== undefined) return { body: Buffer.from(JSON.stringify(answer.json)), headers: { ...headers, 'content-type': 'application/json; charset=utf-8' } };
  const body = answer.body === undefined ? Buffer.alloc(0) : Buffer.from(answer.body);
  return { body, headers: answer.contentType === undefined ? headers : { ...headers, 'content-type': answer.contentType } };
}

export class ForgeSimulator {
  readonly repositories: GitRepositories;
  /** GitHub Apps: add one with `apps.add({ id, slug, publicKey, installations })`; minted tokens in `apps.tokens`. */
  readonly apps: SimulatedApps;
  readonly requests: ForgeRequestRecord[] = [];
  readonly violations: string[] = [];
  /** git smart-HTTP requests to the web host (git-http.ts). */
  readonly gitRequests: GitHttpRecord[] = [];
  readonly #options: ForgeSimulatorOptions;
  readonly #routes: Route[];
  readonly #validator: OpenApiValidator;
  readonly #failures = new Map<string, { readonly answer: SimulatedResponse; remaining: number }[]>();
  readonly #archiveTokens = new Map<string, Repository>();
  readonly #api: Server;
  readonly #web: Server;
  #apiUrl = '';
  #webUrl = '';

  constructor(repositories: GitRepositories, options: ForgeSimulatorOptions = {}) {
    this.repositories = repositories;
    this.#options = options;
    this.apps = new SimulatedApps(options.now);
    const description = loadDescription(options.description);
    this.#validator = new OpenApiValidator(description);
    const table = { ...REPOSITORY_OPERATIONS, ...APP_OPERATIONS, ...options.operations };
    // Literal-heavy templates first, so `/repos/{owner}/{repo}/commits/{ref}` is tried before a looser one.
    this.#routes = Object.entries(table)
      .map(([operationId, handler]) => routeOf(description.operation(operationId), handler))
      .sort((a, b) => b.operation.path.replace(/\{[^}]+\}/g, '').length - a.operation.path.replace(/\{[^}]+\}/g, '').length);
    this.#api = createServer((request, response) => void this.#serveApi(request, response));
    this.#web = createServer((request, response) => void this.#serveWeb(request, response));
  }

  /** The REST base handed to the code under test (`SVC_FORGE_API_URL`). */
  get apiUrl(): string {
    return this.#apiUrl;
  }

  get webUrl(): string {
    return this.#webUrl;
  }

  async start(): Promise<void> {
    const listen = (server: Server) =>
      new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
    this.#apiUrl = `${await listen(this.#api)}${this.#options.apiPrefix ?? ''}`;
    this.#webUrl = await listen(this.#web);
  }

  /** Stops answering: the forge is down (connections are refused from now on). */
  async stop(): Promise<void> {
    const close = (server: Server) =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      });
    await Promise.all([close(this.#api), close(this.#web)]);
  }

  /** Requests answered for an operation (all REST operations when none is named). */
  count(operationId?: string): number {
    return this.requests.filter((record) => (operationId === undefined ? record.operationId !== 'codeload' : record.operationId === operationId)).length;
  }

  /**
   * git fetches served (each `git fetch`/`clone` starts with one `GET info/refs`), of one
   * repository (any casing) or of all.
   */
  gitFetches(repository?: string): number {
    return this.gitRequests.filter((entry) => entry.kind === 'advertise' && entry.status === 200 && (repository === undefined || entry.repository.toLowerCase() === repository.toLowerCase())).length;
  }

  /** The next `times` requests of the operation get `answer` (checked against the description like any answer). */
  failNext(operationId: string, answer: SimulatedResponse, times = 1): void {
    this.#failures.set(operationId, [...(this.#failures.get(operationId) ?? []), { answer, remaining: times }]);
  }

  /** Every request of the operation gets `answer` until `recover()`. */
  failFromNow(operationId: string, answer: SimulatedResponse): void {
    this.failNext(operationId, answer, Number.POSITIVE_INFINITY);
  }

  /** The next `times` requests of the operation get no answer at all (a timeout for the client). */
  hangNext(operationId: string, times = 1): void {
    this.failNext(operationId, { status: 0, hang: true }, times);
  }

  /** Drops the failures still to come. */
  recover(): void {
    this.#failures.clear();
  }

  #injected(operationId: string): SimulatedResponse | undefined {
    const queue = this.#failures.get(operationId) ?? [];
    const next = queue[0];
    if (next === undefined) return undefined;
    next.remaining -= 1;
    if (next.remaining <= 0) queue.shift();
    return next.answer;
  }

  #context(): ForgeContext {
    return {
      repositories: this.repositories,
      apps: this.apps,
      apiUrl: this.#apiUrl,
      webUrl: this.#webUrl,
      visible: (request) => {
        const repository = this.repositories.get(`${request.params['owner'] ?? ''}/${request.params['repo'] ?? ''}`);
        if (repository === undefined) return undefined;
        // An installation token sees only the repositories it was minted for, public ones included.
        const minted = request.credential === undefined ? undefined : this.apps.liveToken(request.credential);
        if (minted !== undefined) return minted.repositories.some((name) => name.toLowerCase() === repository.fullName.toLowerCase()) ? repository : undefined;
        return repository.private && !request.authenticated ? undefined : repository;
      },
      archiveToken: (repository) => {
        const token = randomBytes(12).toString('hex');
        this.#archiveTokens.set(token, repository);
        return token;
      },
    };
  }

  #violation(problem: string): void {
    this.violations.push(problem);
    process.stderr.write(`forge simulator: ${problem}\n`);
  }

  async #serveApi(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://forge.invalid');
    const method = (request.method ?? 'GET').toLowerCase();
    const authorization = request.headers.authorization;
    let operationId = '(none)';
    const send = (answer: SimulatedResponse) => {
      const { body, headers } = serialize(answer);
      this.requests.push({ operationId, method: method.toUpperCase(), path: url.pathname, status: answer.status, authorization });
      response.writeHead(answer.status, { ...headers, 'content-length': String(body.length) }).end(body);
    };
    try {
      const prefix = this.#options.apiPrefix ?? '';
      const path = url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : undefined;
      const route = path === undefined ? undefined : this.#routes.find((candidate) => candidate.operation.method === method && candidate.pattern.test(path));
      const match = route === undefined || path === undefined ? null : route.pattern.exec(path);
      if (route === undefined || match === null) {
        this.#violation(`${method.toUpperCase()} ${url.pathname}: no operation of the simulator's table (${this.#routes.map((r) => r.operation.operationId).join(', ')}) has this method and path`);
        return send(notFound());
      }
      operationId = route.operation.operationId;
      const params = Object.fromEntries(route.names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]));
      const headers = request.headers as Record<string, string | string[] | undefined>;
      const body = await readBody(request);
      const problems = this.#validator.request(route.operation, { path: params, query: queryOf(url), headers, body });
      if (problems.length > 0) {
        for (const problem of problems) this.#violation(`request ${method.toUpperCase()} ${url.pathname}: ${problem}`);
        return send(forgeError(400, `forge simulator: the request does not match GitHub's OpenAPI description: ${problems.join('; ')}`));
      }
      const credential = /^(?:bearer|token)\s+(.+)$/i.exec(authorization ?? '')?.[1];
      const accepted = credential !== undefined && (credential === this.#options.token || this.apps.accepts(credential));
      if (authorization !== undefined && !accepted) return send(forgeError(401, 'Bad credentials'));
      const simulated: SimulatedRequest = {
        operationId,
        params,
        query: queryOf(url),
        headers,
        body: body.length > 0 && /json/i.test(String(headers['content-type'] ?? '')) ? (JSON.parse(body.toString('utf8')) as unknown) : body.length > 0 ? body : undefined,
        authenticated: accepted,
        credential,
      };
      const answer = this.#injected(operationId) ?? (await route.handler(simulated, this.#context()));
      if (answer.hang === true) {
        this.requests.push({ operationId, method: method.toUpperCase(), path: url.pathname, status: 0, authorization });
        return;
      }
      const wire = serialize(answer);
      const wrong = this.#validator.response(route.operation, { status: answer.status, headers: wire.headers, body: wire.body });
      if (wrong.length > 0) {
        for (const problem of wrong) this.#violation(`answer to ${method.toUpperCase()} ${url.pathname}: ${problem}`);
        return send(forgeError(500, `forge simulator: the answer does not match GitHub's OpenAPI description: ${wrong.join('; ')}`));
      }
      return send(answer);
    } catch (error) {
      this.#violation(`${method.toUpperCase()} ${url.pathname}: the simulator failed: ${(error as Error).stack ?? String(error)}`);
      if (!response.headersSent) send(forgeError(500, 'forge simulator failure'));
    }
  }

  /** git reads with the PAT, or an installation token minted for the repository with `contents`. */
  #gitReader(password: string, repository: string): boolean {
    if (this.#options.token !== undefined && password === this.#options.token) return true;
    const minted = this.apps.liveToken(password);
    return minted !== undefined && minted.permissions['contents'] !== undefined && minted.repositories.some((name) => name.toLowerCase() === repository.toLowerCase());
  }

  async #serveWeb(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://forge.invalid');
    try {
      if (isGitPath(url.pathname)) return await serveGit(this.repositories, (password, repository) => this.#gitReader(password, repository), request, response, url, (entry) => this.gitRequests.push(entry));
      const answer = request.method === 'GET' ? await codeload(this.#context(), this.#archiveTokens, url) : { status: 405, body: '' };
      const { body, headers } = serialize(answer);
      this.requests.push({ operationId: 'codeload', method: request.method ?? 'GET', path: url.pathname, status: answer.status, authorization: request.headers.authorization });
      response.writeHead(answer.status, { ...headers, 'content-length': String(body.length) }).end(body);
    } catch (error) {
      this.#violation(`web ${request.method ?? 'GET'} ${url.pathname}: the simulator failed: ${(error as Error).message}`);
      if (!response.headersSent) response.writeHead(500).end();
    }
  }
}

/**
 * The simulator's operations, keyed by GitHub's OpenAPI `operationId` (`repos/get-commit`, ...):
 * a handler gets the request with its path parameters decoded and answers a status, headers and a
 * body. Method and path come from the description, never from the handler, and what a handler
 * answers is checked against the description before it is sent — so adding an operation (webhook
 * deliveries, check runs, ...) is one entry here and its handler.
 */
import type { SimulatedApps } from './app-operations.js';
import type { GitRepositories, Repository } from './git-repositories.js';

export interface SimulatedRequest {
  readonly operationId: string;
  /** Path parameters, decoded (`ref` may hold `/` where the description allows it). */
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The body: parsed when JSON, else the bytes; undefined without one. */
  readonly body: unknown;
  /** True when the request carried a credential the forge accepts (the simulator's token, an App JWT, a live installation token). */
  readonly authenticated: boolean;
  /** The credential of `Authorization` (`Bearer`/`token`), when there was one. */
  readonly credential: string | undefined;
}

export interface SimulatedResponse {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body (sent as `application/json; charset=utf-8`). */
  readonly json?: unknown;
  /** A text or binary body, with `contentType`. */
  readonly body?: string | Buffer;
  readonly contentType?: string;
  /** Never answer (a timeout): the connection stays open until the client gives up or the forge stops. */
  readonly hang?: true;
}

/** What handlers reach of the simulated forge. */
export interface ForgeContext {
  readonly repositories: GitRepositories;
  /** The Apps, their installations and the tokens minted for them (app-operations.ts). */
  readonly apps: SimulatedApps;
  /** The REST base (`http://127.0.0.1:<port>[/api/v3]`). */
  readonly apiUrl: string;
  /** The web host's origin (html URLs, and the archive downloads redirects point to). */
  readonly webUrl: string;
  /** The repository by `owner`/`repo` parameters when the request may see it (a private one needs the token, or an installation token minted for it). */
  visible(request: SimulatedRequest): Repository | undefined;
  /** A token for one archive download of a repository (what codeload's `?token=` carries). */
  archiveToken(repository: Repository): string;
}

export type OperationHandler = (request: SimulatedRequest, forge: ForgeContext) => SimulatedResponse | Promise<SimulatedResponse>;

/** Handlers by operationId. */
export type OperationTable = Readonly<Record<string, OperationHandler>>;

const DOCS = 'https://docs.github.com/rest';

/** GitHub's error body (`basic-error`), with its string `status`. */
export function forgeError(status: number, message: string, documentation = DOCS): SimulatedResponse {
  return { status, json: { message, documentation_url: documentation, status: String(status) } };
}

export function notFound(): SimulatedResponse {
  return forgeError(404, 'Not Found');
}

import type { FastifyRequest } from 'fastify';
import { arrivedOnRunnerSocket, InputError } from '../../../core/kernel/index.js';

/**
 * Where runners find us. The "tenant" (the runner's `serverUrl`, base of every `_apis` call) is
 * the server root, so the runner surface is `/_apis/...` as the spec lists it; the OAuth token
 * endpoint sits under it. Built from SVC_PUBLIC_URL when set (spec, Authentication rule 9),
 * otherwise from the address the runner reached us at. A request on the runner Unix socket has
 * no address to echo (its Host header, `localhost` for most clients, names no listener), so it is
 * given the host's TCP address instead (`listenerUrl`); a socket client maps it back to the socket.
 */
export interface RunnerUrls {
  /** Origin (and path prefix, if SVC_PUBLIC_URL has one) without a trailing slash. */
  base(request: FastifyRequest): string;
  /** The base a registration answers with, checked against the runner's `--url` (§0.7). */
  registrationBase(runnerUrl: URL): string;
}

/** The tenant URL (`serverUrl`): ends with `/`, as the runner's URL joining expects. */
export function tenantUrl(base: string): string {
  return `${base}/`;
}

/** Path of the OAuth token endpoint, under the runner surface. */
export const TOKEN_PATH = '/_apis/oauth2/token';

/** The OAuth token endpoint handed out as `authorizationUrl` (also the assertion's audience). */
export function tokenUrl(base: string): string {
  return `${base}${TOKEN_PATH}`;
}

/** The broker base (`ServerUrlV2`), with the trailing slash raw clients need (§0.6). */
export function brokerUrl(base: string): string {
  return `${base}/broker/`;
}

/** The run service base (`run_service_url`, and the SystemVssConnection of `RunnerJobRequest` jobs), ending with `/`. */
export function runServiceUrl(base: string): string {
  return `${base}/run-service/`;
}

/** A URL compared the way the runner's `Uri.AbsoluteUri` normalises it (case, default port). */
export function normalizeUrl(url: string): string | undefined {
  try {
    return new URL(url).href;
  } catch {
    return undefined;
  }
}

/** The runner's authority rule for GHES-style hosts: equal to, or a DNS sub-domain of, the parent. */
export function isSubdomainOf(authority: string, parent: string): boolean {
  return authority === parent || authority.endsWith(`.${parent}`);
}

export function createRunnerUrls(publicUrl: string | undefined, listenerUrl?: () => string): RunnerUrls {
  const configured = publicUrl === undefined ? undefined : new URL(publicUrl);
  const configuredBase = configured === undefined ? undefined : `${configured.origin}${configured.pathname.replace(/\/+$/, '')}`;
  return {
    base(request) {
      if (configuredBase !== undefined) return configuredBase;
      if (listenerUrl !== undefined && arrivedOnRunnerSocket(request)) return listenerUrl();
      return `${request.protocol}://${request.host}`;
    },
    registrationBase(runnerUrl) {
      if (configured === undefined || configuredBase === undefined) return runnerUrl.origin;
      if (!isSubdomainOf(configured.host, runnerUrl.host)) {
        throw new InputError(
          `the runner was configured with --url ${runnerUrl.origin}/..., but this server is published at SVC_PUBLIC_URL=${configured.origin}; ` +
            `the runner only accepts a service on the same host and port (or a sub-domain of it): configure it with --url ${configured.origin}/<owner>/<repo>`,
          { code: 'public_url_mismatch' },
        );
      }
      return configuredBase;
    },
  };
}

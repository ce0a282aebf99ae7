/**
 * `github.server_url` as jobs see it, and the toolkit's host gate (RUNNER-PROTOCOL.md §5.1, §11).
 *
 * `@actions/artifact` v2+ refuses to run ("GHES not supported") and `@actions/cache` falls back to
 * its v1 protocol unless `GITHUB_SERVER_URL`'s host is `github.com`, ends in `.ghe.com` or ends in
 * `.localhost`. The API addresses (`github.api_url`, `github.graphql_url`) keep the public URL;
 * only `server_url` (and `repositoryUrl`, derived from it) gets a gate-passing name:
 *
 * - a public URL whose host already passes the gate is kept;
 * - a loopback public URL (`127.0.0.0/8`, `::1`, `localhost`) becomes `svc.localhost` on the same
 *   scheme and port: RFC 6761 reserves `*.localhost` for loopback, and curl (so `git`, so
 *   `actions/checkout`'s clone from `GITHUB_SERVER_URL`) resolves it to loopback itself;
 * - any other host is kept: the gate is not passed, so cache falls back to v1 (served too) and
 *   `upload-artifact@v4`/`download-artifact@v4` refuse to run — publish svc under a gate-passing
 *   name for them (plugins/runtime-services/README.md, "The host gate").
 */
import type { GithubServerInput } from '../../../core/workflow/index.js';

/** The alias a loopback public URL gets. */
export const LOOPBACK_JOB_HOST = 'svc.localhost';

/** Whether the toolkit clients switch their v2 services on for this `GITHUB_SERVER_URL`. */
export function passesToolkitHostGate(serverUrl: string): boolean {
  const host = new URL(serverUrl).hostname.trimEnd().toLowerCase();
  return host === 'github.com' || host.endsWith('.ghe.com') || host.endsWith('.localhost');
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The server addresses of a job's `github` context, from the public URL. */
export function jobServer(publicUrl: string): GithubServerInput {
  const base = publicUrl.replace(/\/+$/, '');
  const url = new URL(base);
  if (passesToolkitHostGate(base) || !isLoopback(url.hostname)) return { serverUrl: base };
  const alias = new URL(base);
  alias.hostname = LOOPBACK_JOB_HOST;
  return { serverUrl: alias.toString().replace(/\/+$/, ''), apiUrl: `${base}/api/v3`, graphqlUrl: `${base}/api/graphql` };
}

/**
 * The forge's REST API as svc reaches it: one client per forge (API URL), every call through that
 * forge's circuit breaker (spec: States, "Forge circuit breaker"). The kernel opens the clients
 * (`coreServices.forgeClients`, core/forge/) so backends and plugins share one breaker per forge.
 * Breaker state is per node: each node learns the forge's health from its own calls.
 */
import type { request as octokitRequest } from '@octokit/request';

export type BreakerStateName = 'closed' | 'open' | 'half-open';

export interface BreakerSnapshot {
  readonly state: BreakerStateName;
  /** Consecutive failures counted while closed. */
  readonly failures: number;
  /** When an open breaker lets its probe through (epoch ms); undefined unless open. */
  readonly retryAt: number | undefined;
  /** Why it opened last (`3 consecutive failures: 502 …`, `rate-limited: 429`). */
  readonly reason: string | undefined;
}

export interface ForgeClient {
  /** The REST base, without a trailing slash. */
  readonly apiUrl: string;
  /** `fetch` through the breaker: throws `forge_unavailable` (503) while it is open, without calling the forge. */
  fetch(input: string | URL, init?: RequestInit): Promise<Response>;
  /** `@octokit/request` on this forge (its `baseUrl`), through the same breaker. */
  readonly request: typeof octokitRequest;
  breaker(): BreakerSnapshot;
  /** The queue gate: false while the breaker is open (or its probe is in flight). */
  available(): boolean;
}

export interface ForgeClients {
  /** The client for a forge, created on first use; `undefined` asks for the configured one. */
  forApi(apiUrl?: string): ForgeClient;
  /** The clients created so far. */
  all(): readonly ForgeClient[];
}

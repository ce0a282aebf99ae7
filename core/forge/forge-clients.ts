/** One forge client (and breaker) per forge API URL, made on first use; the configured forge by default. */
import type { Clock, ForgeClient, ForgeClients } from '../ports/index.js';
import { createForgeClient, type ForgeClientOptions } from './forge-client.js';

export interface ForgeClientsOptions {
  /** SVC_FORGE_API_URL, or the public forge's API. */
  readonly defaultApiUrl: string;
  readonly clock: Clock;
  /** SVC_FORGE_BREAKER / SVC_FORGE_BREAKER_THRESHOLD. */
  readonly breaker: { readonly enabled: boolean; readonly threshold: number };
  readonly requestTimeoutMs?: number;
  readonly fetch?: typeof fetch;
}

export function createForgeClients(options: ForgeClientsOptions): ForgeClients {
  const clients = new Map<string, ForgeClient>();
  return {
    forApi(apiUrl = options.defaultApiUrl) {
      const key = apiUrl.replace(/\/+$/, '');
      let client = clients.get(key);
      if (client === undefined) {
        const clientOptions: ForgeClientOptions = {
          apiUrl: key,
          clock: options.clock,
          breaker: options.breaker,
          ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
          ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        };
        client = createForgeClient(clientOptions);
        clients.set(key, client);
      }
      return client;
    },
    all: () => [...clients.values()],
  };
}

/** The `forge_unavailable` status condition (spec: Errors, "Status conditions"): a forge's breaker is not closed. */
import type { ForgeClients, StatusWarning } from '../../core/ports/index.js';

export function forgeWarnings(clients: ForgeClients, now: number): StatusWarning[] {
  const warnings: StatusWarning[] = [];
  for (const client of clients.all()) {
    const breaker = client.breaker();
    if (breaker.state === 'closed') continue;
    const when =
      breaker.retryAt === undefined
        ? 'a probe call is deciding whether it is back'
        : `svc tries it again in ${Math.max(1, Math.ceil((breaker.retryAt - now) / 1000))} s (at ${new Date(breaker.retryAt).toISOString()})`;
    warnings.push({
      code: 'forge_unavailable',
      message: `the forge at ${client.apiUrl} is unavailable (circuit breaker ${breaker.state}: ${breaker.reason ?? 'failures'}); forge calls fail fast and ${when}`,
    });
  }
  return warnings;
}

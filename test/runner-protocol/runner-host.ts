import type { TestContext } from 'node:test';
import { createHost, createSilentLogger, type Host } from '../../core/kernel/index.js';
import { createHostEnv, TEST_SYSTEM_TOKEN } from '../support/host-env.js';
import { ManualClock } from '../support/manual-clock.js';
import { onCleanup, postgresSchemaUrl, requireService } from '../support/services.js';

export type StoreKind = 'sqlite' | 'postgres';

const postgres = await requireService('postgres');

/** The stores every registration suite runs on; PostgreSQL is skipped (loudly) when not configured. */
export const RUNNER_BACKENDS: readonly { readonly kind: StoreKind; readonly skip: string | false }[] = [
  { kind: 'sqlite', skip: false },
  { kind: 'postgres', skip: postgres.skip },
];

export interface RunnerHost {
  readonly host: Host;
  readonly clock: ManualClock;
  /** `http://127.0.0.1:<port>`: what a runner is configured with (plus `/<owner>/<repo>`). */
  readonly baseUrl: string;
  readonly systemToken: string;
}

export interface RunnerHostOptions {
  readonly kind?: StoreKind;
  readonly env?: Record<string, string>;
}

/**
 * A started host (real HTTP on an ephemeral loopback port) with only the `runner-protocol`
 * plugin, on a manual clock the scripted runner signs its assertions with. Stopped after the test.
 */
export async function runnerHost(t: TestContext, options: RunnerHostOptions = {}): Promise<RunnerHost> {
  const database = options.kind === 'postgres' ? { SVC_DATABASE_URL: postgresSchemaUrl(t, postgres.url ?? '').url } : {};
  const hostEnv = createHostEnv({ ...database, ...options.env });
  onCleanup(t, () => hostEnv.cleanup());
  hostEnv.writePlugins('[[plugin]]\nid = "runner-protocol"\n');
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  const host = await createHost({ env: hostEnv.env, cwd: hostEnv.dir, logger: createSilentLogger(), clock });
  onCleanup(t, () => host.stop());
  const baseUrl = await host.start();
  return { host, clock, baseUrl, systemToken: TEST_SYSTEM_TOKEN };
}

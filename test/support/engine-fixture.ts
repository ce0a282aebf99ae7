import type { TestContext } from 'node:test';
import { createPostgresNotifier, createPostgresStore } from '../../backends/postgres/index.js';
import { createInProcessNotifier, createSqliteStore } from '../../backends/sqlite/index.js';
import { createSilentLogger } from '../../core/kernel/index.js';
import { createEngine, engineMigrations, type Engine } from '../../core/engine/index.js';
import type { Database, Notifier } from '../../core/ports/index.js';
import { ManualClock } from './manual-clock.js';
import { onCleanup, postgresSchemaUrl, requireService, tempDir } from './services.js';

export type BackendKind = 'sqlite' | 'postgres';

export interface EngineFixture {
  readonly engine: Engine;
  readonly clock: ManualClock;
  readonly database: Database;
  readonly notifier: Notifier;
  /** A second engine on the same store ("another node"); PostgreSQL only. */
  secondNode(): Promise<Engine>;
}

const postgres = await requireService('postgres');

/** The backends every engine suite runs on; PostgreSQL is skipped (loudly) when not configured. */
export const ENGINE_BACKENDS: readonly { readonly kind: BackendKind; readonly skip: string | false }[] = [
  { kind: 'sqlite', skip: false },
  { kind: 'postgres', skip: postgres.skip },
];

/** A real store of the given kind with the engine's migrations applied, and an engine on it. */
export async function engineFixture(t: TestContext, kind: BackendKind): Promise<EngineFixture> {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  const logger = createSilentLogger();
  const dataDir = await tempDir(t);
  const url = kind === 'postgres' ? postgresSchemaUrl(t, postgres.url ?? '').url : undefined;
  const context = { logger, clock, dataDir, ...(url ? { url } : {}) };
  const store = kind === 'postgres' ? await createPostgresStore(context) : await createSqliteStore(context);
  onCleanup(t, () => store.database.close());
  const report = await store.migrator.migrate('engine', engineMigrations);
  if (report.error) throw report.error;
  const makeNotifier = async (): Promise<Notifier> => {
    const notifier = kind === 'postgres' ? await createPostgresNotifier(context) : createInProcessNotifier(logger);
    onCleanup(t, () => notifier.close());
    return notifier;
  };
  const notifier = await makeNotifier();
  const serverUrl = () => 'http://127.0.0.1:9090';
  const engine = createEngine({ database: store.database, notifier, clock, logger, serverUrl });
  return {
    engine,
    clock,
    database: store.database,
    notifier,
    async secondNode() {
      if (kind !== 'postgres') throw new Error('a second node needs the shared PostgreSQL store');
      const other = await createPostgresStore(context);
      onCleanup(t, () => other.database.close());
      return createEngine({ database: other.database, notifier: await makeNotifier(), clock, logger, serverUrl });
    },
  };
}

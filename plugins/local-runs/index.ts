import { coreServices, definePlugin, optional } from '../../core/kernel/index.js';
import { jobValuesServiceRef } from '../../core/ports/index.js';
import { engineServiceRef } from '../../core/engine/index.js';
import { localRunsCommands } from './cli/index.js';
import { registerHistoryRoutes } from './history-routes.js';
import { createPruneWorker } from './prune-worker.js';
import { schemaErrorFormatter } from './schemas.js';
import { registerSnapshotRoute } from './snapshot-route.js';
import { registerSubmitRoute } from './submit-route.js';

/**
 * Local submissions, what `svc run` calls: the run's commit reaches the snapshot store (from a
 * git work tree, the user's own commit and history through `POST /api/v1/snapshots/negotiate`
 * and `.../pack`; otherwise a tar, `POST /api/v1/snapshots`), then one of its workflow files is
 * run (`POST /api/v1/runs`).
 * Snapshots are kept for the checkout retention (`SVC_SNAPSHOT_RETENTION_SECS`, default
 * 1,800 s) and pruned by the `snapshot-pruner` worker once a minute. Adds `svc run`.
 */
export const plugin = definePlugin({
  id: 'local-runs',
  apiVersion: 1,
  deps: {
    config: coreServices.config,
    snapshots: coreServices.snapshots,
    remoteRepositories: coreServices.remoteRepositories,
    clock: coreServices.clock,
    logger: coreServices.logger,
    lifecycle: coreServices.lifecycle,
    engine: engineServiceRef,
    // Secrets and variables for the runs it creates (plugins/secrets); absent: none.
    jobValues: optional(jobValuesServiceRef),
  },
  commands: localRunsCommands,
  init({ config, snapshots, remoteRepositories, clock, logger, lifecycle, engine, jobValues }, env) {
    const { maxBytes, retentionSecs } = config.env.snapshots;
    const retentionMs = retentionSecs * 1000;
    env.addWorker(createPruneWorker({ snapshots, clock, logger }));
    env.addRoutes({
      prefix: '/api/v1',
      auth: 'system',
      register: (app) => {
        app.setSchemaErrorFormatter(schemaErrorFormatter);
        registerSnapshotRoute(app, { snapshots, clock, logger, maxBytes, retentionMs });
        // Its own context: its schema errors name its bodies' fields.
        void app.register(async (history) => registerHistoryRoutes(history, { snapshots, clock, logger, maxBytes, retentionMs }));
        registerSubmitRoute(app, { engine, snapshots, remoteRepositories, clock, logger, lifecycle, retentionMs, jobValues });
      },
    });
  },
});

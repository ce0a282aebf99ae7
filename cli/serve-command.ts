import type { Command } from 'commander';
import { defaultCatalog } from '../builtins/index.js';

/** `svc serve`: the control plane, until SIGTERM/SIGINT (twice to force). */
export function addServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run the control plane (HTTP on SVC_LISTEN, default 127.0.0.1:9090)')
    .action(async () => {
      // The whole kernel (Fastify, the stores, the plugins) is loaded for `svc serve` only.
      const { createHost, createRootLogger, installShutdownSignals, isSvcError, SERVER_UMASK } = await import('../core/kernel/index.js');
      // Before anything is created: the data dir's files are owner-only from the start.
      process.umask(SERVER_UMASK);
      const bootLogger = createRootLogger({ level: process.env.SVC_LOG_LEVEL ?? 'info' });
      let host;
      try {
        host = await createHost({ env: process.env, cwd: process.cwd(), logger: bootLogger, catalog: defaultCatalog });
        installShutdownSignals(host, host.logger);
        await host.start();
      } catch (error) {
        // Start-up refusals (config, plugins) are for a person to read: one clear line, exit 1.
        const message = isSvcError(error) ? error.message : (error as Error).stack ?? String(error);
        process.stderr.write(`svc serve: ${message}\n`);
        process.exitCode = 1;
      }
    });
}

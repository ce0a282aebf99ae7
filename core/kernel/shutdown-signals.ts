import type { Logger } from './logger.js';

export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * First SIGTERM/SIGINT drains (stop accepting, finish in-flight work, close) and exits 0;
 * a second one while draining exits at once with 128 + the signal number.
 */
export function installShutdownSignals(target: Stoppable, logger: Logger, exit: (code: number) => void = (code) => process.exit(code)): () => void {
  let draining = false;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = 128 + (signal === 'SIGINT' ? 2 : 15);
    if (draining) {
      logger.warn({ signal }, 'second signal: abandoning in-flight work and exiting now');
      exit(code);
      return;
    }
    draining = true;
    logger.info({ signal }, 'draining: no new work is accepted, in-flight work finishes; send the signal again to exit at once');
    target.stop().then(
      () => exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
}

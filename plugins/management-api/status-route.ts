import type { FastifyInstance } from 'fastify';
import type { Logger } from '../../core/kernel/index.js';
import type { StatusWarning, StatusWarningSource } from '../../core/ports/index.js';

export interface StatusInfo {
  readonly version: string;
  readonly startedAt: number;
  readonly store: string;
  readonly notifier: string;
  readonly now: () => number;
}

const StatusResponse = {
  type: 'object',
  required: ['status', 'version', 'uptime_seconds', 'store', 'notifier', 'warnings'],
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded'] },
    version: { type: 'string' },
    uptime_seconds: { type: 'integer' },
    store: { type: 'string' },
    notifier: { type: 'string' },
    warnings: {
      type: 'array',
      items: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
    },
  },
} as const;

/**
 * `GET /api/v1/status`: the node's state and the warning conditions plugins report. A source
 * that throws becomes a `status_source_failed` warning instead of failing the whole request.
 */
export function registerStatusRoute(app: FastifyInstance, info: StatusInfo, sources: ReadonlyMap<string, StatusWarningSource>, logger: Logger): void {
  app.get('/status', { schema: { response: { 200: StatusResponse } } }, async () => {
    const warnings: StatusWarning[] = [];
    for (const [name, source] of sources) {
      try {
        warnings.push(...(await source()));
      } catch (error) {
        logger.warn({ err: error, source: name }, 'status warning source failed');
        warnings.push({ code: 'status_source_failed', message: `${name}: ${(error as Error).message}` });
      }
    }
    return {
      status: warnings.length === 0 ? 'ok' : 'degraded',
      version: info.version,
      uptime_seconds: Math.floor((info.now() - info.startedAt) / 1000),
      store: info.store,
      notifier: info.notifier,
      warnings,
    };
  });
}

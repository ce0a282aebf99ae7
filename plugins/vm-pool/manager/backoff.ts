/** Exponential back-off after consecutive guest failures: `initialMs`, doubling, at most `maxMs`. */
export interface BackoffSettings {
  readonly initialMs: number;
  readonly maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffSettings = { initialMs: 1_000, maxMs: 60_000 };

/** The wait before the next launch after `failures` consecutive failures (0 = none). */
export function backoffDelay(failures: number, settings: BackoffSettings): number {
  if (failures <= 0) return 0;
  return Math.min(settings.maxMs, settings.initialMs * 2 ** Math.min(failures - 1, 30));
}

import { isAbsolute, join, resolve } from 'node:path';
import { ConfigError } from '../../core/kernel/index.js';

export const MEMORY = ':memory:';
export const DEFAULT_FILE_NAME = 'svc.db';

/**
 * Where the embedded store lives:
 * - no URL: `<dataDir>/svc.db`;
 * - `sqlite::memory:`: an in-memory database (gone when closed);
 * - `sqlite:///abs/path.db`: that absolute file;
 * - `sqlite:relative.db`: a file relative to the data directory (not to the working directory,
 *   so the same setting means the same file whoever starts the service).
 */
export function resolveSqliteLocation(url: string | undefined, dataDir: string): string {
  if (url === undefined || url === '') return join(dataDir, DEFAULT_FILE_NAME);
  if (!url.startsWith('sqlite:')) {
    throw new ConfigError(
      `database URL ${JSON.stringify(url)} is not a SQLite URL; use sqlite::memory:, sqlite:///absolute/path.db or sqlite:relative/path.db`,
      { code: 'config_invalid', details: { key: 'SVC_DATABASE_URL' } },
    );
  }
  const rest = url.slice('sqlite:'.length);
  if (rest === MEMORY) return MEMORY;
  if (rest.startsWith('///')) return resolve(decodeURIComponent(rest.slice(2)));
  if (rest.startsWith('//')) {
    throw new ConfigError(
      `database URL ${JSON.stringify(url)} names a host; SQLite URLs are sqlite:///absolute/path.db or sqlite:relative/path.db`,
      { details: { key: 'SVC_DATABASE_URL' } },
    );
  }
  if (rest === '') throw new ConfigError('database URL "sqlite:" names no file', { details: { key: 'SVC_DATABASE_URL' } });
  const path = decodeURIComponent(rest);
  return isAbsolute(path) ? path : resolve(dataDir, path);
}

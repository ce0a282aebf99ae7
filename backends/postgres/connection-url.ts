import { ConfigError } from '../../core/kernel/index.js';
import { isIdentifier } from '../sql/index.js';

export interface PostgresLocation {
  /** What pg connects with: our own `schema` parameter removed, `search_path` set when asked. */
  readonly connectionString: string;
  /** The schema named by `?schema=` or by `search_path` in `?options=`; undefined for the default. */
  readonly schema: string | undefined;
  /** The URL without password or query, for logs and error messages. */
  readonly display: string;
}

const SEARCH_PATH = /(?:^|\s)(?:-c\s*|--)search_path=("?)([^\s,"]+)\1/;

/**
 * Reads SVC_DATABASE_URL for the PostgreSQL backends. `?schema=<name>` (or
 * `?options=-c search_path=<name>`) puts every table, and every notification channel, in that
 * schema; tests use it to get a database of their own.
 */
export function parsePostgresUrl(url: string | undefined): PostgresLocation {
  if (url === undefined || url === '') {
    throw new ConfigError(
      'the postgres backend needs a connection URL: set SVC_DATABASE_URL to postgres://user:password@host:5432/database',
      { details: { key: 'SVC_DATABASE_URL' } },
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('SVC_DATABASE_URL is not a valid URL (expected postgres://user:password@host:5432/database)', {
      details: { key: 'SVC_DATABASE_URL' },
    });
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new ConfigError(`SVC_DATABASE_URL must start with postgres:// or postgresql://, got ${parsed.protocol}//`, {
      details: { key: 'SVC_DATABASE_URL' },
    });
  }
  const display = `${parsed.protocol}//${parsed.username ? `${parsed.username}@` : ''}${parsed.host}${parsed.pathname}`;

  const fromParameter = parsed.searchParams.get('schema') ?? undefined;
  parsed.searchParams.delete('schema');
  const options = parsed.searchParams.get('options') ?? undefined;
  const fromOptions = options === undefined ? undefined : SEARCH_PATH.exec(options)?.[2];
  for (const name of [fromParameter, fromOptions]) {
    if (name !== undefined && !isIdentifier(name)) {
      throw new ConfigError(
        `schema ${JSON.stringify(name)} in SVC_DATABASE_URL must be letters, digits and underscores (at most 63)`,
        { details: { key: 'SVC_DATABASE_URL' } },
      );
    }
  }
  if (fromParameter !== undefined && fromOptions !== undefined && fromParameter !== fromOptions) {
    throw new ConfigError(
      `SVC_DATABASE_URL names two schemas (schema=${fromParameter}, search_path=${fromOptions}); keep one`,
      { details: { key: 'SVC_DATABASE_URL' } },
    );
  }
  if (fromParameter !== undefined && fromOptions === undefined) {
    parsed.searchParams.set('options', `${options === undefined ? '' : `${options} `}-c search_path=${fromParameter}`);
  }
  return { connectionString: parsed.toString(), schema: fromParameter ?? fromOptions, display };
}

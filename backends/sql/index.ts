export { assertIdentifier, isIdentifier } from './identifiers.js';
export { createSqlLeases, type SqlLeasesOptions } from './leases.js';
export { createSqlMigrator, migrationTableName, type SqlMigratorOptions } from './migrator.js';
export { createSqlStore, type SqlStoreOptions } from './sql-store.js';
export { decodeStoredText, encodeStoredText, StoredTextPlugin } from './stored-text.js';

export * from './errors.js';
export { createRootLogger, createSilentLogger, REDACTED_PATHS, type Logger, type LoggerSettings } from './logger.js';
export type {
  BackendContext,
  BlobBackend,
  BlobBackendContext,
  BlobBackendInstance,
  CredentialBackend,
  NotifierBackend,
  Store,
  StoreBackend,
} from './backend-module.js';

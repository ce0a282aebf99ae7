export { createNamespaceBackend, type NamespaceBackendOptions, type NamespaceLogger } from './namespace-backend.js';

export { createFileCredentialStore, fileCredentials } from './file-store.js';
export { createMemoryCredentialStore, memoryCredentials } from './memory-store.js';
export { createOsCredentialStore, osCredentials } from './os-store.js';
export { checkCredentialName } from './names.js';

// runner/config: the runner root (`.runner`, `.credentials`, `.credentials_rsaparams` owner-only,
// `_work/`, `externals/`), JIT configs, and the JavaScript runtimes of `externals/`.
export { OWNER_ONLY, ROOT_FILES, ROOT_FILE_NAMES, RunnerConfigError, RunnerRoot } from './runner-root.js';
export type { RootFileName } from './runner-root.js';
export { formatRunnerSettings, parseRunnerSettings, readRunnerSettings, writeRunnerSettings } from './runner-settings.js';
export type { RunnerSettings } from './runner-settings.js';
export { formatRunnerCredentials, parseRunnerCredentials, readRunnerCredentials, writeRunnerCredentials } from './runner-credentials.js';
export type { RunnerCredentials } from './runner-credentials.js';
export { loadOrCreateRunnerKey, readRunnerKey, writeRunnerKey } from './rsa-key-file.js';
export { applyJitConfig, decodeJitConfig } from './jit-config.js';
export { installNodeRuntimes, installedNodeVersion, nodeRuntimeDir } from './node-externals.js';
export type { ExternalsOptions, NodeRuntime } from './node-externals.js';
export { readRunnerVersions } from './package-versions.js';
export type { RunnerVersions } from './package-versions.js';

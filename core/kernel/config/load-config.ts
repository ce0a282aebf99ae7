import { existsSync } from 'node:fs';
import type { OperatorConfig } from './operator-schema.js';
import { readOperatorConfig } from './config-file.js';
import { poolRunnerSocketDefault, readEnvConfig, type CredentialStoreKind, type Env, type EnvConfig } from './env-config.js';
import { readNodeId, type NodeIdentity } from './node-id.js';
import { absolute, defaultConfigFile, defaultDataDir } from './paths.js';

/** The validated configuration every plugin may read (`coreServices.config`). */
export interface SvcConfig {
  readonly env: EnvConfig;
  readonly operator: OperatorConfig;
  /** Absolute data directory (database, blobs, credentials). */
  readonly dataDir: string;
  /** The operator config file read, if any. */
  readonly configFile: string | undefined;
  readonly credentialStore: CredentialStoreKind;
  /** This node's id (`SVC_NODE_ID`, default from the host name and the data directory; node-id.ts). */
  readonly node: NodeIdentity;
}

export interface LoadConfigOptions {
  readonly env: Env;
  readonly cwd: string;
  /** The host name the default node id comes from (tests); default `os.hostname()`. */
  readonly hostname?: string;
}

export function loadConfig(options: LoadConfigOptions): SvcConfig {
  const read = readEnvConfig(options.env);
  const dataDir = absolute(read.dataDir ?? defaultDataDir(options.env), options.cwd);
  // The built-in pool's namespace guests reach us through the runner socket (env-config.ts).
  const env: EnvConfig = { ...read, runnerSocket: poolRunnerSocketDefault(read, dataDir) };
  const explicitFile = env.configFile !== undefined;
  const configPath = absolute(env.configFile ?? defaultConfigFile(options.env), options.cwd);
  const operator = readOperatorConfig(configPath, explicitFile);
  return {
    env,
    operator,
    dataDir,
    configFile: explicitFile || existsSync(configPath) ? configPath : undefined,
    credentialStore: env.credentialStore ?? operator.credential_store ?? 'file',
    node: readNodeId(options.env.SVC_NODE_ID, dataDir, options.hostname),
  };
}

import { generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { rsaPublicKeyOf } from '../auth/index.js';
import type { AgentRegistry } from '../agents/index.js';
import type { AgentLabel, AgentRecord, PoolRecord, PoolsStore } from '../store/index.js';
import { tokenUrl } from '../urls/index.js';
import { encodeJitConfig, jitFiles } from './jit-files.js';

const generateRsa = promisify(generateKeyPair);

/** Labels the runner itself would add as system labels (self-hosted, OS, architecture). */
const SYSTEM_LABELS = new Set(['self-hosted', 'linux', 'macos', 'windows', 'x86', 'x64', 'arm', 'arm64']);

export interface JitRequest {
  readonly name: string;
  readonly labels: readonly string[];
  readonly poolId: number;
  readonly workFolder: string;
  /** The runner's forge scope URL, if it has one. */
  readonly gitHubUrl?: string;
  /** Server base the runner reaches us at (no trailing slash). */
  readonly base: string;
  /** The node whose built-in pool mints the runner (its guest lives and dies with that node's machine). */
  readonly homeNode?: string;
}

export interface JitResult {
  readonly agent: AgentRecord;
  readonly pool: PoolRecord;
  readonly encodedJitConfig: string;
}

export interface JitProvisioner {
  /**
   * Registers an ephemeral runner with a fresh key pair and returns the blob for
   * `run --jitconfig`. The private key leaves only inside the blob; we keep the public half.
   */
  provision(request: JitRequest): Promise<JitResult>;
}

export function jitLabels(names: readonly string[]): AgentLabel[] {
  const seen = new Set<string>();
  const labels: AgentLabel[] = [];
  for (const name of names) {
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    labels.push({ name, type: SYSTEM_LABELS.has(name.toLowerCase()) ? 'system' : 'user' });
  }
  return labels;
}

export function createJitProvisioner(deps: { readonly registry: AgentRegistry; readonly pools: PoolsStore; readonly runnerVersion: string }): JitProvisioner {
  return {
    async provision(request) {
      const { privateKey } = (await generateRsa('rsa', { modulusLength: 2048 })) as { privateKey: KeyObject; publicKey: KeyObject };
      const agent = await deps.registry.register({
        poolId: request.poolId,
        agent: {
          name: request.name,
          version: deps.runnerVersion,
          osDescription: '',
          labels: jitLabels(request.labels),
          publicKey: rsaPublicKeyOf(privateKey),
          ephemeral: true,
          disableUpdate: true,
        },
        scopeUrl: request.gitHubUrl ?? null,
        authorizationUrl: tokenUrl(request.base),
        allowHostedPool: true,
        ...(request.homeNode === undefined ? {} : { homeNode: request.homeNode }),
      });
      const pool = await deps.pools.get(agent.poolId);
      if (!pool) throw new Error(`runner group ${agent.poolId} vanished while registering runner ${agent.id}`);
      const files = jitFiles({ agent, pool, privateKey, base: request.base, workFolder: request.workFolder, gitHubUrl: request.gitHubUrl ?? request.base });
      return { agent, pool, encodedJitConfig: encodeJitConfig(files) };
    },
  };
}

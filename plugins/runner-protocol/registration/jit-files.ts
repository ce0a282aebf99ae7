import { createPublicKey, type KeyObject } from 'node:crypto';
import type { AgentRecord, PoolRecord } from '../store/index.js';
import { brokerUrl, tenantUrl } from '../urls/index.js';

/** Everything a JIT runner's three root files say (§1.8, §1.10). */
export interface JitFilesInput {
  readonly agent: AgentRecord;
  readonly pool: PoolRecord;
  readonly privateKey: KeyObject;
  readonly base: string;
  readonly workFolder: string;
  /** `gitHubUrl` of `.runner`; the server base when the runner has no forge scope. */
  readonly gitHubUrl: string;
}

/** An unsigned big-endian integer of exactly `length` bytes (left-padded), as base64. */
function fixedWidth(base64url: string | undefined, length?: number): string {
  const bytes = Buffer.from(base64url ?? '', 'base64url');
  if (length === undefined || bytes.length >= length) return bytes.toString('base64');
  return Buffer.concat([Buffer.alloc(length - bytes.length), bytes]).toString('base64');
}

/**
 * `.credentials_rsaparams`: .NET RSAParameters as base64, with the widths .NET's import insists on
 * (`d` as long as the modulus; `p`, `q`, `dp`, `dq`, `inverseQ` half of it), which a JWK's
 * minimal integers do not always have.
 */
export function rsaParametersOf(privateKey: KeyObject): Record<string, string> {
  const jwk = privateKey.export({ format: 'jwk' });
  const modulusBytes = Buffer.from(jwk.n ?? '', 'base64url').length;
  const half = Math.ceil(modulusBytes / 2);
  return {
    d: fixedWidth(jwk.d, modulusBytes),
    dp: fixedWidth(jwk.dp, half),
    dq: fixedWidth(jwk.dq, half),
    exponent: fixedWidth(jwk.e),
    inverseQ: fixedWidth(jwk.qi, half),
    modulus: fixedWidth(jwk.n),
    p: fixedWidth(jwk.p, half),
    q: fixedWidth(jwk.q, half),
  };
}

/** The file contents, by name, as the runner would have written them after `config.sh`. */
export function jitFiles(input: JitFilesInput): Record<'.runner' | '.credentials' | '.credentials_rsaparams', string> {
  const { agent, pool, base } = input;
  if (createPublicKey(input.privateKey).export({ format: 'jwk' }).n !== Buffer.from(agent.publicKey.modulus, 'base64').toString('base64url')) {
    throw new Error(`the private key does not belong to runner ${agent.id}`);
  }
  const runner = {
    agentId: agent.id,
    agentName: agent.name,
    poolId: pool.id,
    poolName: pool.name,
    serverUrl: tenantUrl(base),
    gitHubUrl: input.gitHubUrl,
    workFolder: input.workFolder,
    isHostedServer: false,
    ephemeral: agent.ephemeral,
    disableUpdate: agent.disableUpdate,
    serverUrlV2: brokerUrl(base),
  };
  const credentials = {
    scheme: 'OAuth',
    data: { clientId: agent.clientId, authorizationUrl: agent.authorizationUrl, requireFipsCryptography: 'False' },
  };
  return {
    '.runner': JSON.stringify(runner, null, 2),
    '.credentials': JSON.stringify(credentials, null, 2),
    '.credentials_rsaparams': JSON.stringify(rsaParametersOf(input.privateKey), null, 2),
  };
}

/** `run --jitconfig <blob>`: base64 of a JSON map from file name to base64 of the file's bytes. */
export function encodeJitConfig(files: Readonly<Record<string, string>>): string {
  const map = Object.fromEntries(Object.entries(files).map(([name, text]) => [name, Buffer.from(text, 'utf8').toString('base64')]));
  return Buffer.from(JSON.stringify(map), 'utf8').toString('base64');
}

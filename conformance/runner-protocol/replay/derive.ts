/**
 * The runner's local computations between exchanges (`derive:` steps), each turning captured
 * values into a variable: its RSA key (`.credentials_rsaparams`), the client assertion it signs
 * for the token endpoint, the session key it unwraps, a legacy message it decrypts, a broker
 * body it parses, the claims of a token an action decodes, a JIT config it writes to disk, an
 * object it updates before sending it back; and what the toolkit or a relying party computes: a
 * digest, a URL's parts, a regular-expression extraction, an OIDC token verified against its
 * issuer's keys. Crypto is core/protocol's (the library svc-runner uses too); JWTs are signed with jose.
 */
import { createHash, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, SignJWT, type JSONWebKeySet } from 'jose';
import {
  decryptMessageBody,
  parseRsaParametersFile,
  rsaParametersToPrivateKey,
  taskAgentPublicKeyFromKey,
  unwrapSessionKey,
  type TaskAgentSessionKey,
} from '../../../core/protocol/index.js';
import type { DeriveKind, JsonObject, JsonValue } from './scenario-types.js';

/** Private keys by the variable name they were derived as (never printed, never in variables). */
export type KeyRing = Map<string, KeyObject>;

export class DeriveError extends Error {}

function text(value: JsonValue | undefined, what: string): string {
  if (typeof value !== 'string' || value === '') throw new DeriveError(`${what} must be a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}

function object(value: JsonValue | undefined, what: string): JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new DeriveError(`${what} must be an object, got ${JSON.stringify(value)}`);
  return value;
}

function keyOf(keys: KeyRing, name: JsonValue | undefined): KeyObject {
  const key = keys.get(text(name, 'key'));
  if (!key) throw new DeriveError(`no RSA key was derived as '${String(name)}'`);
  return key;
}

function publicKeyVariable(key: KeyObject): JsonObject {
  const { exponent, modulus } = taskAgentPublicKeyFromKey(key);
  return { exponent, modulus, xml: `<RSAKeyValue><Modulus>${modulus}</Modulus><Exponent>${exponent}</Exponent></RSAKeyValue>` };
}

function parseJsonText(value: string, what: string): JsonValue {
  try {
    return JSON.parse(value.replace(/^\uFEFF/, '')) as JsonValue;
  } catch (error) {
    throw new DeriveError(`${what} is not JSON (${(error as Error).message}): ${value.slice(0, 200)}`);
  }
}

function base64Json(value: JsonValue | undefined, what: string): JsonValue {
  return parseJsonText(Buffer.from(text(value, what), 'base64').toString('utf8'), what);
}

/**
 * The client assertion (RUNNER-PROTOCOL.md §1.9.2): `{"typ":"JWT","alg":...}`, claims sub, jti,
 * iss, aud, nbf, exp (nbf + 5 min), no iat; PS256 when the runner requires FIPS cryptography.
 * `skewSeconds` moves the runner's clock (a runner whose clock runs ahead).
 */
async function clientAssertion(input: JsonObject, keys: KeyRing): Promise<string> {
  const clientId = text(input['clientId'], 'clientId');
  const fips = input['requireFipsCryptography'];
  const alg = fips === true || (typeof fips === 'string' && fips.toLowerCase() === 'true') ? 'PS256' : 'RS256';
  const nbf = Math.floor(Date.now() / 1000) + Number(input['skewSeconds'] ?? 0);
  const claims = { sub: clientId, jti: randomUUID(), iss: clientId, aud: text(input['audience'], 'audience'), nbf, exp: nbf + 300 };
  return new SignJWT(claims).setProtectedHeader({ typ: 'JWT', alg }).sign(keyOf(keys, input['key']));
}

/** `run --jitconfig`: the files the runner writes (§1.10), parsed; the RSA key goes to the key ring as `key` (default `<as>Key`). */
function jitConfig(input: JsonObject, keys: KeyRing, as: string): JsonValue {
  const files = object(base64Json(input['encoded'], 'encoded_jit_config'), 'the JIT config');
  const runner = base64Json(files['.runner'], '.runner');
  const credentials = base64Json(files['.credentials'], '.credentials');
  const rsaText = Buffer.from(text(files['.credentials_rsaparams'], '.credentials_rsaparams'), 'base64').toString('utf8');
  let key: KeyObject;
  try {
    key = rsaParametersToPrivateKey(parseRsaParametersFile(rsaText));
  } catch (error) {
    throw new DeriveError(`.credentials_rsaparams does not load as the runner's RSA key: ${(error as Error).message}`);
  }
  keys.set(typeof input['key'] === 'string' && input['key'] !== '' ? input['key'] : `${as}Key`, key);
  return { runner, credentials, publicKey: publicKeyVariable(key) };
}

/** A fresh 2048-bit RSA key, as `config.sh` makes: generated, unless the caller brings its own source. */
export type RsaKeySource = () => KeyObject;

const generateRsaKey: RsaKeySource = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

export async function derive(kind: DeriveKind, input: JsonObject, keys: KeyRing, as: string, newRsaKey: RsaKeySource = generateRsaKey): Promise<JsonValue> {
  switch (kind) {
    case 'rsaKey': {
      const key = newRsaKey();
      keys.set(as, key);
      return publicKeyVariable(key);
    }
    case 'clientAssertion':
      return clientAssertion(input, keys);
    case 'sessionKey': {
      const session = object(input['session'], 'session');
      const useFipsEncryption = session['useFipsEncryption'] === true;
      try {
        const key = unwrapSessionKey(session['encryptionKey'] as TaskAgentSessionKey | null | undefined, keyOf(keys, input['key']), { useFipsEncryption });
        return key === undefined ? null : key.toString('base64');
      } catch (error) {
        throw new DeriveError(`the session key does not unwrap with the runner's key: ${(error as Error).message}`);
      }
    }
    case 'decryptMessage': {
      const message = object(input['message'], 'message');
      const sessionKey = input['sessionKey'];
      const key = typeof sessionKey === 'string' && sessionKey !== '' ? Buffer.from(sessionKey, 'base64') : undefined;
      let plain: string;
      try {
        plain = decryptMessageBody(message as { body?: string | null; iv?: string | null }, key);
      } catch (error) {
        throw new DeriveError(`the message body does not decrypt with the session key: ${(error as Error).message}`);
      }
      return parseJsonText(plain, 'the decrypted message body');
    }
    case 'parseJson':
      return parseJsonText(text(input['text'], 'text'), 'text');
    case 'jwtClaims': {
      const token = text(input['token'], 'token');
      const payload = token.split('.')[1];
      if (payload === undefined) throw new DeriveError('the token is not a JWT (no payload segment)');
      return parseJsonText(Buffer.from(payload, 'base64url').toString('utf8'), 'the token payload');
    }
    case 'jitConfig':
      return jitConfig(input, keys, as);
    case 'sha256': {
      const bytes = Buffer.from(text(input['text'], 'text'), 'utf8');
      return { hex: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
    }
    case 'url': {
      let url: URL;
      try {
        url = new URL(text(input['href'], 'href'));
      } catch {
        throw new DeriveError(`'${String(input['href'])}' is not a URL`);
      }
      return { href: url.href, origin: url.origin, protocol: url.protocol, host: url.host, hostname: url.hostname, pathname: url.pathname, search: url.search };
    }
    case 'regex': {
      // What a client extracts from a value (e.g. the backend ids in a token's scp claim).
      const match = new RegExp(text(input['pattern'], 'pattern')).exec(text(input['text'], 'text'));
      if (!match) throw new DeriveError(`'${String(input['text']).slice(0, 200)}' does not match /${String(input['pattern'])}/`);
      return [...match].map((group) => group ?? null);
    }
    case 'verifyJwt': {
      // What a relying party does with an OIDC token: check its signature against the issuer's keys.
      const jwks = object(input['jwks'], 'jwks') as unknown as JSONWebKeySet;
      try {
        const { payload } = await jwtVerify(text(input['token'], 'token'), createLocalJWKSet(jwks), { audience: text(input['audience'], 'audience') });
        return payload as JsonObject;
      } catch (error) {
        throw new DeriveError(`the token does not verify against the issuer's keys: ${(error as Error).message}`);
      }
    }
    case 'base64':
      return Buffer.from(text(input['text'], 'text'), 'utf8').toString('base64');
    case 'merge': {
      // An object the runner updates in place (e.g. the agent it re-sends on --replace): later members win.
      const objects = input['objects'];
      if (!Array.isArray(objects)) throw new DeriveError('merge needs `objects`, a list of objects');
      return Object.assign({}, ...objects.map((item, index) => object(item, `objects[${index}]`))) as JsonObject;
    }
  }
}

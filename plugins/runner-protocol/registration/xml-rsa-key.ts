import { InputError } from '../../../core/kernel/index.js';
import { publicKeyObject } from '../auth/index.js';
import type { RsaPublicKey } from '../store/index.js';

const PUBLIC_ELEMENTS = new Set(['Modulus', 'Exponent']);
const PRIVATE_ELEMENTS = new Set(['P', 'Q', 'DP', 'DQ', 'InverseQ', 'D']);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** A whole key is a few hundred bytes; anything much longer is not one. */
export const MAX_XML_KEY_LENGTH = 16 * 1024;

function invalid(message: string): InputError {
  return new InputError(`public_key ${message}; send the runner's RSA public key as .NET XML, <RSAKeyValue><Modulus>…</Modulus><Exponent>…</Exponent></RSAKeyValue>`, {
    code: 'invalid_public_key',
  });
}

/**
 * The runner-admin registration's `public_key` (§1.7): the .NET XML form of an RSA public key
 * (`RSA.ToXmlString(false)`), `<RSAKeyValue>` holding base64 big-endian `<Modulus>` and
 * `<Exponent>`, in either order, whitespace between elements and inside the base64 allowed. An
 * XML declaration may precede it. Private parameters, other elements, attributes and comments
 * are refused, as is a key that is not RSA or under 2048 bits.
 */
export function parseXmlRsaPublicKey(xml: string): RsaPublicKey {
  if (xml.length > MAX_XML_KEY_LENGTH) throw invalid(`is longer than ${MAX_XML_KEY_LENGTH} characters`);
  const document = xml.trim().replace(/^<\?xml[^?]*\?>\s*/, '');
  const root = /^<RSAKeyValue>([\s\S]*)<\/RSAKeyValue>$/.exec(document);
  if (!root) throw invalid('is not an <RSAKeyValue> element');
  const values = new Map<string, string>();
  let rest = root[1] ?? '';
  while ((rest = rest.trimStart()) !== '') {
    const element = /^<([A-Za-z]+)>([^<]*)<\/\1>/.exec(rest);
    if (!element) throw invalid(`has unexpected content in <RSAKeyValue> near '${rest.slice(0, 24)}'`);
    const name = element[1] ?? '';
    if (PRIVATE_ELEMENTS.has(name)) throw invalid(`contains the private parameter <${name}>: never send the private key, only the public one`);
    if (!PUBLIC_ELEMENTS.has(name)) throw invalid(`has an unknown element <${name}>`);
    if (values.has(name)) throw invalid(`has <${name}> twice`);
    const base64 = (element[2] ?? '').replace(/\s+/g, '');
    if (!BASE64.test(base64)) throw invalid(`<${name}> is not base64`);
    values.set(name, base64);
    rest = rest.slice(element[0].length);
  }
  const modulus = values.get('Modulus');
  const exponent = values.get('Exponent');
  if (modulus === undefined || exponent === undefined) throw invalid('needs both <Modulus> and <Exponent>');
  const key = { exponent, modulus };
  const checked = publicKeyObject(key);
  if (typeof checked === 'string') throw invalid(`is not usable (${checked.replace(/^authorization\.publicKey\s*/, '')})`);
  return key;
}

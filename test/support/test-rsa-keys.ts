/**
 * RSA 2048 keys for tests, made once per machine. Generating one costs about half a second of CPU
 * (OpenSSL 3), and the suites need hundreds (a runner's key per scripted runner, a server's token
 * signing key per host): the keys are kept in the temp dir (`svc-test-rsa-keys-v1/`, mode 0700,
 * one PKCS#8 PEM per file, 0600) and reused by every later test process.
 *
 * Within one process every call returns a different key (the n-th call the n-th key of the pool,
 * made when the pool has no n-th key yet), so two runners or two hosts of one test never share a
 * key, as with freshly generated ones. These keys sign nothing outside tests.
 */
import { createPrivateKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const BITS = 2048;
let next = 0;

function poolDir(): string {
  const dir = join(tmpdir(), `svc-test-rsa-keys-v1-${userInfo().uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stats = statSync(dir);
  // Another user's directory (or a loosened one) is not trusted: fresh keys, nothing kept.
  if (stats.uid !== userInfo().uid || (stats.mode & 0o077) !== 0) throw new Error(`${dir} is not a private directory of this user`);
  return dir;
}

function pooledPem(index: number): string {
  let dir: string;
  try {
    dir = poolDir();
  } catch {
    return generatePem();
  }
  const file = join(dir, `key-${index}.pem`);
  try {
    const kept = readFileSync(file, 'utf8');
    createPrivateKey(kept);
    return kept;
  } catch {
    const pem = generatePem();
    // Written beside, then renamed: a process racing on the same index reads one whole key.
    const part = `${file}.${randomBytes(4).toString('hex')}`;
    writeFileSync(part, pem, { mode: 0o600 });
    renameSync(part, file);
    return pem;
  }
}

function generatePem(): string {
  return generateKeyPairSync('rsa', { modulusLength: BITS }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** A 2048-bit RSA private key no earlier call of this process returned (PKCS#8 PEM). */
export function testRsaKeyPem(): string {
  return pooledPem(next++);
}

/** A 2048-bit RSA private key no earlier call of this process returned. */
export function testRsaKey(): KeyObject {
  return createPrivateKey(testRsaKeyPem());
}

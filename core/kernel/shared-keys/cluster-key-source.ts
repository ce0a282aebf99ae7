import { randomBytes } from 'node:crypto';
import { link, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { CredentialStore } from '../../ports/index.js';
import { ConfigError } from '../errors.js';

/** Credential-store entry of the cluster key when SVC_CLUSTER_KEY_FILE is not set. */
export const CLUSTER_KEY_NAME = 'cluster-key';

/** Where this node keeps its cluster key: SVC_CLUSTER_KEY_FILE, or the credential store. */
export interface ClusterKeySource {
  /** For messages: `SVC_CLUSTER_KEY_FILE (/run/secrets/svc-cluster-key)` or `the file credential store's 'cluster-key'`. */
  readonly description: string;
  /** How an operator puts a copy here (over a wrong one when `replacing`), as the end of a sentence. */
  howToPlace(replacing: boolean): string;
  /** Whether the key survives a restart of this node. */
  readonly persistent: boolean;
  read(): Promise<string | undefined>;
  /** Stores a new key unless one appeared meanwhile; returns the one kept. */
  create(text: string): Promise<string>;
  /** Removes a key `create` made that turned out to be of no use (another node set the cluster up first). */
  remove(): Promise<void>;
}

export function clusterKeySource(options: { readonly file: string | undefined; readonly credentials: CredentialStore }): ClusterKeySource {
  return options.file === undefined ? credentialSource(options.credentials) : fileSource(options.file);
}

export function credentialSource(store: CredentialStore): ClusterKeySource {
  return {
    description: `the ${store.kind} credential store's '${CLUSTER_KEY_NAME}'`,
    howToPlace: (replacing) =>
      `then here, as the user that runs \`svc serve\` and with its configuration, \`svc cluster-key import${replacing ? ' --replace' : ''} < cluster.key\` (or point SVC_CLUSTER_KEY_FILE at a mode-0600 file holding it), and delete the copy`,
    persistent: store.persistent,
    read: () => store.get(CLUSTER_KEY_NAME),
    async create(text) {
      const existing = await store.get(CLUSTER_KEY_NAME);
      if (existing !== undefined) return existing;
      await store.set(CLUSTER_KEY_NAME, text);
      return text;
    },
    async remove() {
      await store.delete(CLUSTER_KEY_NAME);
    },
  };
}

/**
 * A key file (e.g. a mounted secret). Like ssh with its private keys, svc refuses a file that
 * group or others may read or write: the key opens every signing key of the installation.
 */
export function fileSource(path: string): ClusterKeySource {
  const description = `SVC_CLUSTER_KEY_FILE (${path})`;
  return {
    description,
    howToPlace: (replacing) => `then here ${replacing ? 'replace' : 'put it at'} ${path} (mode 0600, owned by the user that runs \`svc serve\`)`,
    persistent: true,
    async read() {
      let mode: number;
      try {
        mode = (await stat(path)).mode & 0o777;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw new ConfigError(`${description} cannot be read: ${(error as Error).message}`, { code: 'cluster_key_unreadable' });
      }
      if ((mode & 0o077) !== 0) {
        throw new ConfigError(
          `${description} has mode ${mode.toString(8).padStart(4, '0')}: group and others must have no access to the cluster key; run \`chmod 600 ${path}\` (a Kubernetes secret: defaultMode 0400)`,
          { code: 'cluster_key_file_mode' },
        );
      }
      return readFile(path, 'utf8');
    },
    async create(text) {
      // Written whole beside the path, then linked in (fails if the path exists): a node racing
      // this one never reads a half-written key.
      const temporary = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
      try {
        await writeFile(temporary, `${text}\n`, { mode: 0o600, flag: 'wx' });
        await link(temporary, path);
        return text;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') return (await this.read()) ?? text;
        throw new ConfigError(`${description} does not exist and cannot be created (${code ?? (error as Error).message}): put the cluster key there (\`svc cluster-key export\` on a node that has one), or unset SVC_CLUSTER_KEY_FILE to keep it in the credential store`, {
          code: 'cluster_key_unwritable',
        });
      } finally {
        await rm(temporary, { force: true });
      }
    },
    async remove() {
      await rm(path, { force: true });
    },
  };
}

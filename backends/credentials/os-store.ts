import { execFile } from 'node:child_process';
import { ConfigError, type CredentialBackend } from '../../core/kernel/index.js';
import type { CredentialStore } from '../../core/ports/index.js';
import { checkCredentialName } from './names.js';

const SERVICE = 'svc';

interface ExecResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], input?: string): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, [...args], { timeout: 10_000 }, (error, stdout, stderr) => {
      if (error && typeof (error as NodeJS.ErrnoException).code === 'string') {
        reject(error);
        return;
      }
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** Linux Secret Service through `secret-tool` (libsecret); values pass on stdin, never on argv. */
function secretToolStore(): CredentialStore {
  const attrs = (name: string) => ['service', SERVICE, 'account', checkCredentialName(name)];
  return {
    kind: 'os',
    persistent: true,
    async get(name) {
      const result = await run('secret-tool', ['lookup', ...attrs(name)]);
      return result.code === 0 ? result.stdout : undefined;
    },
    async set(name, value) {
      const result = await run('secret-tool', ['store', `--label=svc ${name}`, ...attrs(name)], value);
      if (result.code !== 0) throw new Error(`secret-tool store failed: ${result.stderr.trim()}`);
    },
    async delete(name) {
      const existed = (await this.get(name)) !== undefined;
      await run('secret-tool', ['clear', ...attrs(name)]);
      return existed;
    },
  };
}

/** macOS login keychain through `security`. */
function keychainStore(): CredentialStore {
  return {
    kind: 'os',
    persistent: true,
    async get(name) {
      const result = await run('security', ['find-generic-password', '-s', SERVICE, '-a', checkCredentialName(name), '-w']);
      return result.code === 0 ? result.stdout.replace(/\n$/, '') : undefined;
    },
    async set(name, value) {
      // `-w` as the last argument with no value makes security prompt on stdin, keeping it off argv.
      const result = await run('security', ['add-generic-password', '-U', '-s', SERVICE, '-a', checkCredentialName(name), '-w'], `${value}\n${value}\n`);
      if (result.code !== 0) throw new Error(`security add-generic-password failed: ${result.stderr.trim()}`);
    },
    async delete(name) {
      const result = await run('security', ['delete-generic-password', '-s', SERVICE, '-a', checkCredentialName(name)]);
      return result.code === 0;
    },
  };
}

async function available(command: string, args: readonly string[]): Promise<boolean> {
  try {
    await run(command, args);
    return true;
  } catch {
    return false;
  }
}

/** The operating system's credential store, or a ConfigError saying what is missing. */
export async function createOsCredentialStore(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): Promise<CredentialStore> {
  if (platform === 'darwin') {
    if (await available('security', ['help'])) return keychainStore();
    throw new ConfigError('credential_store = "os" needs the macOS `security` tool, which was not found; use credential_store = "file"');
  }
  if (platform === 'linux') {
    if (!(await available('secret-tool', ['--version']))) {
      throw new ConfigError(
        'credential_store = "os" needs the Secret Service client `secret-tool` (package libsecret-tools), which was not found on this host; install it or use credential_store = "file"',
      );
    }
    if (!env.DBUS_SESSION_BUS_ADDRESS) {
      throw new ConfigError(
        'credential_store = "os" needs a D-Bus session with a Secret Service (e.g. gnome-keyring), but DBUS_SESSION_BUS_ADDRESS is not set; use credential_store = "file" on headless hosts',
      );
    }
    return secretToolStore();
  }
  throw new ConfigError(`credential_store = "os" is not supported on ${platform}; use credential_store = "file"`);
}

export const osCredentials: CredentialBackend = {
  kind: 'credentials',
  id: 'os',
  create: () => createOsCredentialStore(),
};

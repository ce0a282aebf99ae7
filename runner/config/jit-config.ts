import { parseRunnerCredentials } from './runner-credentials.js';
import { parseRunnerSettings, type RunnerSettings } from './runner-settings.js';
import { ROOT_FILE_NAMES, ROOT_FILES, RunnerConfigError, type RootFileName, type RunnerRoot } from './runner-root.js';
import { parseRsaParametersFile, rsaParametersToPrivateKey } from '../../core/protocol/index.js';

/**
 * `run --jitconfig <blob>` (§1.10): base64 of a JSON object mapping file name to base64 of the
 * file's bytes. svc-runner accepts exactly the three root files, checks that each is what it
 * claims to be, and writes them owner-only; no configure calls happen.
 */
export function decodeJitConfig(blob: string): ReadonlyMap<RootFileName, string> {
  const outer = decodeBase64Text(blob.trim(), 'the --jitconfig value');
  let map: unknown;
  try {
    map = JSON.parse(outer);
  } catch {
    throw new RunnerConfigError('the --jitconfig value is not base64 of a JSON object; pass the encoded_jit_config the server generated');
  }
  if (typeof map !== 'object' || map === null || Array.isArray(map)) throw new RunnerConfigError('the --jitconfig value must decode to a JSON object of file names');
  const files = new Map<RootFileName, string>();
  for (const [name, content] of Object.entries(map)) {
    if (!(ROOT_FILE_NAMES as readonly string[]).includes(name)) {
      throw new RunnerConfigError(`the --jitconfig value holds '${name}'; only ${ROOT_FILE_NAMES.join(', ')} are accepted`);
    }
    if (typeof content !== 'string') throw new RunnerConfigError(`the --jitconfig entry '${name}' must be a base64 string`);
    files.set(name as RootFileName, decodeBase64Text(content, `the --jitconfig entry '${name}'`));
  }
  const missing = ROOT_FILE_NAMES.filter((name) => !files.has(name));
  if (missing.length > 0) throw new RunnerConfigError(`the --jitconfig value lacks ${missing.join(', ')}`);
  parseRunnerSettings(files.get(ROOT_FILES.settings) ?? '', `${ROOT_FILES.settings} of --jitconfig`);
  parseRunnerCredentials(files.get(ROOT_FILES.credentials) ?? '', `${ROOT_FILES.credentials} of --jitconfig`);
  try {
    rsaParametersToPrivateKey(parseRsaParametersFile(files.get(ROOT_FILES.rsaParams) ?? ''));
  } catch (error) {
    throw new RunnerConfigError(`${ROOT_FILES.rsaParams} of --jitconfig is not an RSA key: ${(error as Error).message}`);
  }
  return files;
}

/** Writes the JIT files into the root (replacing any configuration there); returns the settings. */
export async function applyJitConfig(root: RunnerRoot, blob: string): Promise<RunnerSettings> {
  const files = decodeJitConfig(blob);
  for (const [name, text] of files) await root.writeOwnerOnly(name, text);
  return parseRunnerSettings(files.get(ROOT_FILES.settings) ?? '', root.path(ROOT_FILES.settings));
}

function decodeBase64Text(value: string, what: string): string {
  if (value === '' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(value)) throw new RunnerConfigError(`${what} is not base64`);
  return Buffer.from(value, 'base64').toString('utf8');
}

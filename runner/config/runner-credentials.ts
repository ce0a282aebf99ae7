import { canonicalKeys, parseRootJson } from './json-file.js';
import { ROOT_FILES, RunnerConfigError, type RunnerRoot } from './runner-root.js';

/** `.credentials` (§1.8): the OAuth client of the runner. */
export interface RunnerCredentials {
  readonly scheme: 'OAuth';
  readonly clientId: string;
  readonly authorizationUrl: string;
  /** Where the token is requested when it differs from the JWT audience. */
  readonly oauthEndpointUrl?: string;
  readonly requireFipsCryptography: boolean;
  readonly authorizationUrlV2?: string;
  readonly enableAuthMigrationByDefault?: boolean;
}

const DATA_KEYS = ['clientId', 'authorizationUrl', 'oauthEndpointUrl', 'requireFipsCryptography', 'authorizationUrlV2', 'enableAuthMigrationByDefault'] as const;

/** .NET writes booleans as `True`/`False`; readers accept any casing. */
function dotnetBool(value: unknown, fallback: boolean): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  return fallback;
}

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function parseRunnerCredentials(text: string, path: string): RunnerCredentials {
  const document = canonicalKeys(parseRootJson(text, path), ['scheme', 'data']);
  if (typeof document['scheme'] !== 'string' || document['scheme'].toLowerCase() !== 'oauth') {
    throw new RunnerConfigError(`${path} has scheme '${String(document['scheme'])}'; svc-runner needs the OAuth scheme. Configure the runner again`);
  }
  const rawData = document['data'];
  if (typeof rawData !== 'object' || rawData === null || Array.isArray(rawData)) throw new RunnerConfigError(`${path} has no data object; configure the runner again`);
  const data = canonicalKeys(rawData as Record<string, unknown>, DATA_KEYS);
  const clientId = optionalText(data['clientId']);
  const authorizationUrl = optionalText(data['authorizationUrl']);
  if (clientId === undefined || authorizationUrl === undefined) throw new RunnerConfigError(`${path} lacks clientId or authorizationUrl; configure the runner again`);
  const oauthEndpointUrl = optionalText(data['oauthEndpointUrl']);
  const authorizationUrlV2 = optionalText(data['authorizationUrlV2']);
  return {
    scheme: 'OAuth',
    clientId,
    authorizationUrl,
    // OAuthCredential: ConvertToBoolean(data["requireFipsCryptography"], false).
    requireFipsCryptography: dotnetBool(data['requireFipsCryptography'], false),
    ...(oauthEndpointUrl === undefined ? {} : { oauthEndpointUrl }),
    ...(authorizationUrlV2 === undefined ? {} : { authorizationUrlV2 }),
    ...(data['enableAuthMigrationByDefault'] === undefined ? {} : { enableAuthMigrationByDefault: dotnetBool(data['enableAuthMigrationByDefault'], false) }),
  };
}

export function formatRunnerCredentials(credentials: RunnerCredentials): string {
  const data: Record<string, string> = {
    clientId: credentials.clientId,
    authorizationUrl: credentials.authorizationUrl,
    requireFipsCryptography: credentials.requireFipsCryptography ? 'True' : 'False',
  };
  if (credentials.oauthEndpointUrl !== undefined) data['oauthEndpointUrl'] = credentials.oauthEndpointUrl;
  if (credentials.enableAuthMigrationByDefault === true && credentials.authorizationUrlV2 !== undefined) {
    data['enableAuthMigrationByDefault'] = 'true';
    data['authorizationUrlV2'] = credentials.authorizationUrlV2;
  }
  return JSON.stringify({ scheme: 'OAuth', data }, null, 2);
}

export async function readRunnerCredentials(root: RunnerRoot): Promise<RunnerCredentials | undefined> {
  const text = await root.readText(ROOT_FILES.credentials);
  return text === undefined ? undefined : parseRunnerCredentials(text, root.path(ROOT_FILES.credentials));
}

export async function writeRunnerCredentials(root: RunnerRoot, credentials: RunnerCredentials): Promise<void> {
  await root.writeOwnerOnly(ROOT_FILES.credentials, formatRunnerCredentials(credentials));
}

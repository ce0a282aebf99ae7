/**
 * The operator configuration file (TOML, mode 0600): the spec's tables, nothing else.
 * Plain JSON Schema (validated with Ajv, which Fastify already carries) beside the TypeScript
 * types it admits. Every object is closed (`additionalProperties: false`) so a misspelt key is
 * an error.
 */
export type PermissionLevel = 'none' | 'read' | 'write' | 'admin';

/** Workflow-token permission keys, as GitHub names them. */
export const PERMISSION_KEYS = [
  'actions',
  'attestations',
  'checks',
  'contents',
  'deployments',
  'discussions',
  'id-token',
  'issues',
  'models',
  'packages',
  'pages',
  'pull-requests',
  'repository-projects',
  'security-events',
  'statuses',
] as const;

export type PermissionKey = (typeof PERMISSION_KEYS)[number];

export interface ProtectionRule {
  readonly workflows?: readonly string[];
  readonly action: 'deny';
}

export interface EnvironmentRule {
  readonly deployment_branches?: readonly string[];
  readonly deployment_tags?: readonly string[];
  readonly wait_timer_minutes?: number;
  readonly required_reviewers?: number;
}

type SecretMap = Readonly<Record<string, string>>;

export interface OperatorConfig {
  readonly fork_policy?: { readonly run_fork_workflows?: boolean; readonly require_approval?: boolean };
  readonly execution_protection?: {
    readonly mode?: 'evaluate' | 'enforce';
    readonly event_rules?: readonly (ProtectionRule & { readonly event: string })[];
    readonly actor_rules?: readonly (ProtectionRule & { readonly actor: string })[];
  };
  readonly token_permissions_ceiling?: { readonly default?: PermissionLevel; readonly allow_create_approve_pr?: boolean } & {
    readonly [K in PermissionKey]?: PermissionLevel;
  };
  readonly environment_rules?: Readonly<Record<string, Readonly<Record<string, EnvironmentRule>>>>;
  readonly forge?: { readonly pr?: { readonly auto?: 'feature' | 'never'; readonly draft?: boolean; readonly exclude?: readonly string[] } };
  readonly secrets?: {
    readonly global?: SecretMap;
    readonly repository?: Readonly<Record<string, SecretMap>>;
    readonly environment?: Readonly<Record<string, Readonly<Record<string, SecretMap>>>>;
  };
  readonly secrets_store?: 'file' | 'memory';
  readonly credential_store?: 'file' | 'os';
}

/** ASCII letters, digits, `-`, `_`; not starting with `-` or `_`; at most 255 bytes. */
export const ENVIRONMENT_NAME = '^[A-Za-z0-9][A-Za-z0-9_-]{0,254}$';
export const REPOSITORY_NAME = '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$';
export const SECRET_NAME = '^[A-Z][A-Z0-9_]*$';

type Schema = Readonly<Record<string, unknown>>;

const closed = (properties: Record<string, Schema>, required: readonly string[] = []): Schema => ({
  type: 'object',
  properties,
  additionalProperties: false,
  ...(required.length > 0 ? { required } : {}),
});
const keyed = (keyPattern: string, value: Schema): Schema => ({
  type: 'object',
  patternProperties: { [keyPattern]: value },
  additionalProperties: false,
});
const oneOf = (...values: readonly string[]): Schema => ({ type: 'string', enum: values });
const level = oneOf('none', 'read', 'write', 'admin');
const patterns: Schema = { type: 'array', items: { type: 'string', minLength: 1 } };
const secretMap = keyed(SECRET_NAME, { type: 'string' });
const rule = (subject: 'event' | 'actor'): Schema =>
  closed({ [subject]: { type: 'string', minLength: 1 }, workflows: patterns, action: { const: 'deny' } }, [subject, 'action']);

export const OperatorConfigSchema: Schema = closed({
  fork_policy: closed({ run_fork_workflows: { type: 'boolean' }, require_approval: { type: 'boolean' } }),
  execution_protection: closed({
    mode: oneOf('evaluate', 'enforce'),
    event_rules: { type: 'array', items: rule('event') },
    actor_rules: { type: 'array', items: rule('actor') },
  }),
  token_permissions_ceiling: closed({
    default: level,
    allow_create_approve_pr: { type: 'boolean' },
    ...Object.fromEntries(PERMISSION_KEYS.map((key) => [key, level])),
  }),
  environment_rules: keyed(
    REPOSITORY_NAME,
    keyed(
      ENVIRONMENT_NAME,
      closed({
        deployment_branches: patterns,
        deployment_tags: patterns,
        wait_timer_minutes: { type: 'integer', minimum: 0, maximum: 43200 },
        // Local rules have no user identities: at most one reviewer (the system bearer approves).
        required_reviewers: { type: 'integer', minimum: 0, maximum: 1 },
      }),
    ),
  ),
  forge: closed({ pr: closed({ auto: oneOf('feature', 'never'), draft: { type: 'boolean' }, exclude: patterns }) }),
  secrets: closed({
    global: secretMap,
    repository: keyed(REPOSITORY_NAME, secretMap),
    environment: keyed(REPOSITORY_NAME, keyed(ENVIRONMENT_NAME, secretMap)),
  }),
  secrets_store: oneOf('file', 'memory'),
  credential_store: oneOf('file', 'os'),
});

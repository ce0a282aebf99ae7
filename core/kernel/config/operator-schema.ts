import { Type, type Static, type TOptional } from '@sinclair/typebox';

/**
 * The operator configuration file (TOML, mode 0600): the spec's tables, nothing else.
 * Every object is closed (`additionalProperties: false`) so a misspelt key is an error.
 */
const closed = <T extends Parameters<typeof Type.Object>[0]>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

const Level = Type.Union([Type.Literal('none'), Type.Literal('read'), Type.Literal('write'), Type.Literal('admin')]);

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

const permissionLevels = Object.fromEntries(PERMISSION_KEYS.map((key) => [key, Type.Optional(Level)])) as {
  [K in PermissionKey]: TOptional<typeof Level>;
};

const Patterns = Type.Array(Type.String({ minLength: 1 }));

const EventRule = closed({
  event: Type.String({ minLength: 1 }),
  workflows: Type.Optional(Patterns),
  action: Type.Literal('deny'),
});

const ActorRule = closed({
  actor: Type.String({ minLength: 1 }),
  workflows: Type.Optional(Patterns),
  action: Type.Literal('deny'),
});

/** ASCII letters, digits, `-`, `_`; not starting with `-` or `_`; at most 255 bytes. */
export const ENVIRONMENT_NAME = '^[A-Za-z0-9][A-Za-z0-9_-]{0,254}$';
export const REPOSITORY_NAME = '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$';
export const SECRET_NAME = '^[A-Z][A-Z0-9_]*$';

const EnvironmentRule = closed({
  deployment_branches: Type.Optional(Patterns),
  deployment_tags: Type.Optional(Patterns),
  wait_timer_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 43200 })),
  // Local rules have no user identities: at most one reviewer (the system bearer approves).
  required_reviewers: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
});

const SecretMap = Type.Record(Type.String({ pattern: SECRET_NAME }), Type.String(), { additionalProperties: false });

export const OperatorConfigSchema = closed({
  fork_policy: Type.Optional(
    closed({
      run_fork_workflows: Type.Optional(Type.Boolean()),
      require_approval: Type.Optional(Type.Boolean()),
    }),
  ),
  execution_protection: Type.Optional(
    closed({
      mode: Type.Optional(Type.Union([Type.Literal('evaluate'), Type.Literal('enforce')])),
      event_rules: Type.Optional(Type.Array(EventRule)),
      actor_rules: Type.Optional(Type.Array(ActorRule)),
    }),
  ),
  token_permissions_ceiling: Type.Optional(
    Type.Object(
      {
        default: Type.Optional(Level),
        allow_create_approve_pr: Type.Optional(Type.Boolean()),
        ...permissionLevels,
      },
      { additionalProperties: false },
    ),
  ),
  environment_rules: Type.Optional(
    Type.Record(
      Type.String({ pattern: REPOSITORY_NAME }),
      Type.Record(Type.String({ pattern: ENVIRONMENT_NAME }), EnvironmentRule, { additionalProperties: false }),
      { additionalProperties: false },
    ),
  ),
  forge: Type.Optional(
    closed({
      pr: Type.Optional(
        closed({
          auto: Type.Optional(Type.Union([Type.Literal('feature'), Type.Literal('never')])),
          draft: Type.Optional(Type.Boolean()),
          exclude: Type.Optional(Patterns),
        }),
      ),
    }),
  ),
  secrets: Type.Optional(
    closed({
      global: Type.Optional(SecretMap),
      repository: Type.Optional(Type.Record(Type.String({ pattern: REPOSITORY_NAME }), SecretMap, { additionalProperties: false })),
      environment: Type.Optional(
        Type.Record(
          Type.String({ pattern: REPOSITORY_NAME }),
          Type.Record(Type.String({ pattern: ENVIRONMENT_NAME }), SecretMap, { additionalProperties: false }),
          { additionalProperties: false },
        ),
      ),
    }),
  ),
  secrets_store: Type.Optional(Type.Union([Type.Literal('file'), Type.Literal('memory')])),
  credential_store: Type.Optional(Type.Union([Type.Literal('file'), Type.Literal('os')])),
});

export type OperatorConfig = Static<typeof OperatorConfigSchema>;

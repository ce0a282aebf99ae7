import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { InputError } from '../../core/kernel/index.js';
import type { JsonObject } from '../../core/workflow/index.js';
import { MAX_SUPPLIED_VALUE_BYTES, MAX_SUPPLIED_VALUES } from './supplied-values.js';

/** The body of `POST /api/v1/runs` as sent (snake_case, what the JSON Schema checks). */
export interface RunRequestBody {
  readonly repository: string;
  readonly snapshot: string;
  readonly workflow: string;
  readonly event?: string;
  readonly ref?: string;
  readonly base?: string;
  readonly changed_files?: readonly string[];
  readonly payload?: JsonObject;
  readonly job?: string | readonly string[];
  readonly inputs?: Readonly<Record<string, string | number | boolean>>;
  readonly actor?: string;
  /** Run-supplied secrets (`svc run --secret`): kept sealed for the run's lifetime only. */
  readonly secrets?: Readonly<Record<string, string>>;
  /** Run-supplied variables (`svc run --var`): above every stored scope. */
  readonly vars?: Readonly<Record<string, string>>;
}

/** A checked submission with its defaults applied. */
export interface RunRequest {
  readonly repository: string;
  /** The snapshot commit (POST /api/v1/snapshots); always the run's commit. */
  readonly snapshot: string;
  /** The workflow file's path in the repository, normalised (`.github/workflows/ci.yml`). */
  readonly workflow: string;
  readonly event: string;
  readonly ref: string;
  /** The branch `branches:` filters and `paths:` changes are taken against (no `refs/heads/`). */
  readonly base?: string;
  /** Files changed between `base` and the snapshot; absent: `paths:` filters are not applied. */
  readonly changedFiles?: readonly string[];
  readonly payload?: JsonObject;
  /** Only these jobs (job keys or paths) and the jobs they need; absent: every job. */
  readonly jobs?: readonly string[];
  readonly inputs?: JsonObject;
  readonly actor: string;
  /** Run-supplied secrets and variables (name → value); absent when none was given. */
  readonly secrets?: Readonly<Record<string, string>>;
  readonly vars?: Readonly<Record<string, string>>;
}

export const DEFAULT_EVENT = 'push';
export const DEFAULT_BRANCH = 'main';
export const DEFAULT_ACTOR = 'local';

/** The secrets plugin's name rule: UPPER_SNAKE, not starting with a digit or GITHUB_. */
const VALUE_NAME = '^(?!GITHUB_)[A-Z_][A-Z0-9_]*$';
const suppliedValues = (what: string) =>
  ({
    type: 'object',
    maxProperties: MAX_SUPPLIED_VALUES,
    propertyNames: { pattern: VALUE_NAME, maxLength: 255 },
    additionalProperties: { type: 'string', maxLength: MAX_SUPPLIED_VALUE_BYTES },
    description: `run-supplied ${what}, name -> value, kept for the run's lifetime only`,
  }) as const;

const OBJECT_ID = '^(?:[0-9a-f]{40}|[0-9a-f]{64})$';
/** What git allows in a branch name, roughly (check-ref-format): no spaces, controls or ~^:?*[\. */
const BRANCH = '^(?!-)(?!.*\\.\\.)(?!.*//)(?!/)(?!.*/$)(?!.*\\.lock$)[^\\s~^:?*\\[\\\\\\x00-\\x1f\\x7f]+$';

export const RunRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['repository', 'snapshot', 'workflow'],
  properties: {
    repository: { type: 'string', minLength: 1, maxLength: 256, description: 'owner/repo, as the snapshot was uploaded' },
    snapshot: { type: 'string', pattern: OBJECT_ID, description: 'the sha POST /api/v1/snapshots answered' },
    workflow: { type: 'string', minLength: 1, maxLength: 4096, description: 'path of the workflow file in the repository' },
    event: { type: 'string', pattern: '^[a-z][a-z_]*$', maxLength: 64, description: 'default push' },
    ref: { type: 'string', pattern: '^refs/[^\\s]+$', maxLength: 1024, description: 'default refs/heads/<base, or main>' },
    base: { type: 'string', pattern: BRANCH, maxLength: 255, description: 'the branch for branches: filters and the base of changed_files' },
    changed_files: { type: 'array', maxItems: 100_000, items: { type: 'string', minLength: 1, maxLength: 4096 } },
    payload: {
      type: 'object',
      description: 'merged over the minimal local payload',
      // What the github context is built from must keep its shape; anything else is the client's.
      properties: {
        repository: { type: 'object', properties: { full_name: { type: 'string' } } },
        sender: { type: 'object', properties: { login: { type: 'string' } } },
      },
    },
    job: {
      type: ['string', 'array'],
      minLength: 1,
      maxLength: 1024,
      minItems: 1,
      maxItems: 256,
      items: { type: 'string', minLength: 1, maxLength: 1024 },
      description: 'keep this job (or these jobs) and the jobs they need',
    },
    inputs: { type: 'object', maxProperties: 25, additionalProperties: { type: ['string', 'number', 'boolean'] } },
    actor: { type: 'string', pattern: '^[^\\s\\x00-\\x1f\\x7f]+$', maxLength: 255 },
    secrets: suppliedValues('secrets'),
    vars: suppliedValues('variables'),
  },
} as const;

const HINTS: Readonly<Record<string, string>> = {
  snapshot: 'snapshot must be the sha that POST /api/v1/snapshots answered (40 or 64 lower-case hex digits)',
  event: 'event must be an event name such as push, pull_request or workflow_dispatch',
  ref: 'ref must be a full ref such as refs/heads/main or refs/tags/v1',
  base: 'base must be a branch name such as main',
  actor: 'actor must be a login without spaces',
};

// One instance, compiled when the submit route is registered (or on first use); strict so a typo in the schema fails loudly, union types
// for `inputs` values. Not Fastify's route validator: the same function runs in the unit tests,
// and every schema problem is reported at once, not only the first.
let validator: ValidateFunction<RunRequestBody> | undefined;

/**
 * Checks a submission body against the JSON Schema and the rules a schema cannot say (paths
 * inside the repository, inputs only for workflow_dispatch), and applies the defaults. Every
 * problem becomes one InputError (`invalid_request`) whose message names the fields.
 */
export function parseRunRequest(body: unknown): RunRequest {
  const validate = runRequestValidator();
  if (!validate(body)) throw invalid((validate.errors ?? []).map(describeError).filter((problem) => problem !== ''));
  const checked = body;
  const problems: string[] = [];
  const workflow = repositoryPath(checked.workflow, 'workflow', problems);
  const changedFiles = checked.changed_files?.map((file, index) => repositoryPath(file, `changed_files[${index}]`, problems));
  const event = checked.event ?? DEFAULT_EVENT;
  if (checked.inputs !== undefined && event !== 'workflow_dispatch') {
    problems.push(`inputs are for the workflow_dispatch event only (the event is ${event}); put other data in payload`);
  }
  const fullName = checked.payload?.['repository'] === undefined ? undefined : (checked.payload['repository'] as { full_name?: string }).full_name;
  if (fullName !== undefined && fullName !== checked.repository) {
    problems.push(`payload.repository.full_name "${fullName}" is not the repository of the run (${checked.repository}); leave it out`);
  }
  for (const [field, values] of [['secrets', checked.secrets], ['vars', checked.vars]] as const) {
    for (const [name, value] of Object.entries(values ?? {})) {
      const bytes = Buffer.byteLength(value, 'utf8');
      // Never the value: only its name and size.
      if (bytes > MAX_SUPPLIED_VALUE_BYTES) problems.push(`${field}.${name} is ${bytes} bytes; the limit is ${MAX_SUPPLIED_VALUE_BYTES} (48 KB)`);
    }
  }
  if (problems.length > 0) throw invalid(problems);
  const base = checked.base?.replace(/^refs\/heads\//, '');
  return {
    repository: checked.repository,
    snapshot: checked.snapshot,
    workflow,
    event,
    ref: checked.ref ?? `refs/heads/${base ?? DEFAULT_BRANCH}`,
    actor: checked.actor ?? DEFAULT_ACTOR,
    ...(base === undefined ? {} : { base }),
    ...(changedFiles === undefined ? {} : { changedFiles }),
    ...(checked.payload === undefined ? {} : { payload: checked.payload }),
    ...(checked.job === undefined ? {} : { jobs: typeof checked.job === 'string' ? [checked.job] : [...new Set(checked.job)] }),
    ...(checked.inputs === undefined ? {} : { inputs: { ...checked.inputs } }),
    ...(checked.secrets === undefined || Object.keys(checked.secrets).length === 0 ? {} : { secrets: { ...checked.secrets } }),
    ...(checked.vars === undefined || Object.keys(checked.vars).length === 0 ? {} : { vars: { ...checked.vars } }),
  };
}

/**
 * The compiled schema. Compiling takes tens of milliseconds: the submit route does it when it
 * is registered, so the first `svc run` after a start does not wait for it.
 */
export function runRequestValidator(): ValidateFunction<RunRequestBody> {
  validator ??= new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile<RunRequestBody>(RunRequestSchema);
  return validator;
}

/** A path relative to the repository's root, `./` and doubled slashes dropped; never leaving it. */
function repositoryPath(path: string, field: string, problems: string[]): string {
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || segments.includes('..') || segments.length === 0 || path.includes('\0')) {
    problems.push(`${field} "${path}" must be a path inside the repository, relative to its root and without "..", e.g. .github/workflows/ci.yml`);
    return path;
  }
  return segments.join('/');
}

function describeError(error: ErrorObject): string {
  const field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const top = field.split('.')[0] ?? '';
  switch (error.keyword) {
    case 'required':
      return `${String(error.params['missingProperty'])} is required`;
    case 'additionalProperties':
      return `unknown field '${String(error.params['additionalProperty'])}' (allowed: ${Object.keys(RunRequestSchema.properties).join(', ')})`;
    case 'minLength':
      return `${field} must not be empty`;
    case 'pattern':
      if (top === 'secrets' || top === 'vars') return `${top}: '${String(error.propertyName ?? field)}' is not a name: use UPPER_SNAKE (A-Z, 0-9 and _, not starting with a digit or GITHUB_), e.g. DEPLOY_KEY`;
      return HINTS[top] ?? `${field} has an invalid value`;
    case 'propertyNames':
      return '';
    case 'maxLength':
      // A value's own text never goes into the message.
      return top === 'secrets' || top === 'vars' ? `${field} is longer than ${MAX_SUPPLIED_VALUE_BYTES} characters (48 KB)` : `${field} ${error.message ?? 'is too long'}`;
    case 'type':
      return field === '' ? 'the body must be a JSON object' : `${field} must be ${article(String(error.params['type']))}`;
    default:
      return `${field === '' ? 'the body' : field} ${error.message ?? 'is invalid'}`;
  }
}

function article(type: string): string {
  if (type === 'object') return 'a JSON object';
  if (type === 'array') return 'an array';
  if (type.includes(',')) return `a ${type.split(',').join(' or ')}`;
  return `a ${type}`;
}

function invalid(problems: readonly string[]): InputError {
  return new InputError(`invalid run request: ${problems.join('; ')}`, { code: 'invalid_request', details: { problems } });
}

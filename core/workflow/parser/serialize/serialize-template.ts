/**
 * A loaded workflow as JSON in the shape and member order GitHub's parser writes it (the format
 * of the official conformance corpus; handy for `svc plan`-style output and for diffing). When
 * there are errors, only the errors are written, as GitHub discards the model.
 */
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/index';
import type {
  ConvertedJob,
  ConvertedReusableWorkflowJob,
  ConvertedStep,
  ConvertedWorkflowJob,
} from '../model-types.js';
import { isReusableJob } from '../model-types.js';
import { serializePermissions } from '../permissions/permissions.js';
import type { Permissions } from '../permissions/permissions.js';
import type { LoadWorkflowResult } from '../types.js';
import { serializeToken } from './serialize-token.js';
import type { Json } from './serialize-token.js';

export type { Json };

export interface SerializeOptions {
  /** Keep file/line/col on tokens and write the file table. */
  readonly includeSource?: boolean;
  /**
   * Write the converted `on:` as `events`, the TypeScript language service's shape, instead of
   * GitHub's `input-types` (which `events.workflow_dispatch.inputs` covers).
   */
  readonly includeEvents?: boolean;
}

type JsonObject = { [key: string]: Json };

export function serializeWorkflow(result: LoadWorkflowResult, options: SerializeOptions = {}): JsonObject {
  const includeSource = options.includeSource ?? false;
  const out = new Writer(includeSource);
  const template = result.template;
  if (result.errors.length === 0 && template !== undefined) {
    if (options.includeEvents) out.json('events', JSON.parse(JSON.stringify(template.events ?? {})) as Json);
    else if (template['input-types'] !== undefined) out.json('input-types', template['input-types']);
    out.token('env', template.env);
    out.permissions('permissions', template.permissions);
    out.token('defaults', template.defaults);
    out.token('concurrency', template.concurrency);
    if (template.jobs.length > 0) out.json('jobs', template.jobs.map((job) => serializeJob(job, includeSource)));
  }
  if (includeSource && result.fileTable.length > 0) out.json('file-table', [...result.fileTable]);
  if (result.errors.length > 0) out.json('errors', result.errors.map((error) => ({ Message: error.githubMessage })));
  return out.result;
}

function serializeJob(job: ConvertedWorkflowJob, includeSource: boolean): JsonObject {
  return isReusableJob(job) ? serializeReusableJob(job, includeSource) : serializeRegularJob(job, includeSource);
}

function serializeRegularJob(job: ConvertedJob, includeSource: boolean): JsonObject {
  const out = new Writer(includeSource);
  out.json('type', 'job');
  out.token('id', job.id);
  out.token('name', job.name);
  if (job.needs !== undefined && job.needs.length > 0) out.tokens('needs', job.needs);
  out.token('if', job.if);
  out.token('strategy', job.strategy);
  out.token('continue-on-error', job['continue-on-error']);
  out.token('timeout-minutes', job['timeout-minutes']);
  out.token('cancel-timeout-minutes', job['cancel-timeout-minutes']);
  out.token('concurrency', job.concurrency);
  out.permissions('permissions', job.permissions);
  out.token('env', job.env);
  out.token('environment', job.environment);
  out.token('defaults', job.defaults);
  out.token('runs-on', job['runs-on']);
  out.token('container', job.container);
  out.token('services', job.services);
  out.token('outputs', job.outputs);
  if (job.steps.length > 0) out.json('steps', job.steps.map((step) => serializeStep(step, includeSource)));
  out.token('snapshot', job.snapshot);
  return out.result;
}

function serializeReusableJob(job: ConvertedReusableWorkflowJob, includeSource: boolean): JsonObject {
  const out = new Writer(includeSource);
  out.json('type', 'reusableWorkflowJob');
  out.token('id', job.id);
  out.token('name', job.name);
  out.tokens('needs', job.needs ?? []);
  out.token('if', job.if);
  out.token('ref', job.ref);
  out.permissions('permissions', job.permissions);
  out.token('input-definitions', job['input-definitions']);
  out.token('input-values', job['input-values']);
  out.token('secret-definitions', job['secret-definitions']);
  out.token('secret-values', job['secret-values']);
  if (job['inherit-secrets'] === true) out.json('inherit-secrets', true);
  out.token('outputs', job.outputs);
  out.token('defaults', job.defaults);
  out.token('env', job.env);
  out.token('concurrency', job.concurrency);
  out.token('embedded-concurrency', job['embedded-concurrency']);
  out.token('strategy', job.strategy);
  out.json('jobs', (job.jobs ?? []).map((nested) => serializeJob(nested, includeSource)));
  return out.result;
}

function serializeStep(step: ConvertedStep, includeSource: boolean): JsonObject {
  const out = new Writer(includeSource);
  const fields = step as ConvertedStep & Record<string, unknown>;
  out.json('id', step.id);
  out.token('name', step.name);
  out.token('if', fields['if'] as TemplateToken | undefined);
  const continueOnError = step['continue-on-error'];
  if (typeof continueOnError === 'boolean') out.json('continue-on-error', continueOnError);
  else out.token('continue-on-error', continueOnError);
  out.token('timeout-minutes', step['timeout-minutes']);
  out.token('env', fields['env'] as TemplateToken | undefined);
  out.token('working-directory', step['working-directory']);
  out.token('shell', step.shell);
  out.token('run', fields['run'] as TemplateToken | undefined);
  out.token('uses', fields['uses'] as TemplateToken | undefined);
  out.token('with', step.with);
  // The background-step kinds (an experimental feature of the TypeScript parser) follow.
  if (typeof fields['background'] === 'boolean') out.json('background', fields['background']);
  if (Array.isArray(fields['wait'])) out.tokens('wait', fields['wait'] as TemplateToken[]);
  if (typeof fields['wait-all'] === 'boolean') out.json('wait-all', fields['wait-all']);
  out.token('cancel', fields['cancel'] as TemplateToken | undefined);
  if (Array.isArray(fields['parallel'])) {
    out.json('parallel', (fields['parallel'] as ConvertedStep[]).map((inner) => serializeStep(inner, includeSource)));
  }
  return out.result;
}

class Writer {
  readonly result: JsonObject = {};
  readonly #includeSource: boolean;

  constructor(includeSource: boolean) {
    this.#includeSource = includeSource;
  }

  json(key: string, value: Json): void {
    this.result[key] = value;
  }

  token(key: string, token: TemplateToken | undefined): void {
    if (token !== undefined) this.result[key] = serializeToken(token, this.#includeSource);
  }

  tokens(key: string, tokens: readonly TemplateToken[]): void {
    this.result[key] = tokens.map((token) => serializeToken(token, this.#includeSource));
  }

  permissions(key: string, permissions: Permissions | undefined): void {
    if (permissions !== undefined) this.result[key] = serializePermissions(permissions);
  }
}

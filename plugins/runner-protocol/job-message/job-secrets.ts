/**
 * Which secrets a job message carries (spec: Secrets; GitHub's "Using secrets in GitHub Actions"):
 *
 * - a job of the run's own workflow gets the secrets its templates read: each `secrets.NAME` /
 *   `secrets['NAME']` in an expression of the job (steps, env with the workflow's, container,
 *   services, outputs, ...); a dynamic `secrets[expr]`, or `secrets` on its own (`toJSON(secrets)`),
 *   reads them all;
 * - a job of a called workflow gets what its caller passes: exactly the caller's `secrets:`
 *   mapping, evaluated in the caller's own secrets context, or with `secrets: inherit` the
 *   caller's secrets; nested calls chain, outermost first. Then the same reading rule applies.
 *
 * `GITHUB_TOKEN` is not among them: the message's `github_token` variable is the runner's
 * `secrets.GITHUB_TOKEN` (the job token). In a caller's context it reads as the token's slot.
 */
import { isMapping } from '@actions/workflow-parser/templates/tokens/type-guards';
import {
  evaluateTemplateValue,
  toExpressionContexts,
  type CallPlan,
  type ExpressionObject,
  type JobInstance,
  type PlannedJob,
  type TemplateToken,
} from '../../../core/workflow/index.js';
import { JOB_TOKEN_SLOT } from './job-token-slot.js';
import type { JobPlan } from './types.js';

/** What a job's expressions read of `secrets` (names lower-cased: GitHub matches them ignoring case). */
export interface SecretReads {
  readonly all: boolean;
  readonly names: ReadonlySet<string>;
}

const INDEXED = /\bsecrets\s*\[\s*'((?:[^']|'')*)'\s*\]/gi;
const STRING_LITERAL = /'(?:[^']|'')*'/g;
const DOTTED = /(?<![\w.-])secrets\s*\.\s*([A-Za-z_][\w-]*)/gi;
const BARE = /(?<![\w.-])secrets(?![\w-])/i;

/** The `secrets` references of one expression. */
export function secretReadsOf(expression: string, into: { all: boolean; names: Set<string> }): void {
  let rest = expression.replace(INDEXED, (_, name: string) => {
    into.names.add(name.replace(/''/g, "'").toLowerCase());
    return '';
  });
  rest = rest.replace(STRING_LITERAL, "''");
  rest = rest.replace(DOTTED, (_, name: string) => {
    into.names.add(name.toLowerCase());
    return '';
  });
  if (BARE.test(rest)) into.all = true;
}

/** Every expression of a job's templates. */
export function secretsReadBy(plan: JobPlan): SecretReads {
  const reads = { all: false, names: new Set<string>() };
  const seen = new WeakSet<object>();
  const walk = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    const expression = (value as { expr?: unknown; templateTokenType?: unknown }).expr;
    if (typeof expression === 'string' && (value as { templateTokenType?: unknown }).templateTokenType !== undefined) secretReadsOf(expression, reads);
    for (const member of Array.isArray(value) ? value : Object.values(value)) walk(member);
  };
  const { instance, job } = plan;
  for (const part of [job.template, instance.env, instance.steps, instance.container, instance.services, instance.outputs, instance.defaults]) walk(part);
  return reads;
}

/** The secrets a job's message carries, from the secrets its run sees (stored by precedence, and run-supplied). */
export function jobSecrets(plan: JobPlan, runSecrets: Readonly<Record<string, string>>): Record<string, string> {
  let available: Record<string, string> = { ...runSecrets };
  for (const link of callersOf(plan.workflow.jobs, plan.instance.id)) available = passedSecrets(link, available, plan);
  const reads = secretsReadBy(plan);
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(available)) {
    if (name.toUpperCase() === 'GITHUB_TOKEN') continue;
    if (reads.all || reads.names.has(name.toLowerCase())) result[name] = value;
  }
  return result;
}

interface CallLink {
  readonly caller: PlannedJob;
  readonly instance: JobInstance;
  readonly call: CallPlan;
}

/** The calling instances above a job, outermost first (a called job's id is its caller's id, `/`, its own). */
function callersOf(jobs: readonly PlannedJob[], instanceId: string): CallLink[] {
  for (const caller of jobs) {
    for (const instance of caller.instances) {
      if (instance.call === undefined || !instanceId.startsWith(`${instance.id}/`)) continue;
      return [{ caller, instance, call: instance.call }, ...callersOf(instance.call.jobs, instanceId)];
    }
  }
  return [];
}

/** What one call passes down: its caller's secrets (inherit), or its `secrets:` mapping evaluated in the caller's context. */
function passedSecrets(link: CallLink, callerSecrets: Readonly<Record<string, string>>, plan: JobPlan): Record<string, string> {
  const { call, instance, caller } = link;
  if (call.secrets.inherit) return { ...callerSecrets };
  const mapping = call.secrets.values;
  if (mapping === undefined || !isMapping(mapping)) return {};
  const contexts = toExpressionContexts({
    github: caller.scope.github,
    vars: caller.scope.vars,
    inputs: caller.scope.inputs ?? {},
    matrix: instance.matrix,
    strategy: instance.strategy,
    // The caller's `secrets`, with GITHUB_TOKEN as the job token's slot (filled at delivery).
    secrets: { ...callerSecrets, GITHUB_TOKEN: JOB_TOKEN_SLOT } as ExpressionObject,
    needs: {},
  } as Parameters<typeof toExpressionContexts>[0]);
  const evaluated = evaluateTemplateValue(mapping as TemplateToken, contexts, { fileTable: plan.fileTable });
  const result: Record<string, string> = {};
  if (typeof evaluated !== 'object' || evaluated === null || Array.isArray(evaluated)) return result;
  for (const [name, value] of Object.entries(evaluated)) {
    if (value === null || value === undefined) continue;
    result[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return result;
}

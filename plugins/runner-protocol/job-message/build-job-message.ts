/**
 * `buildJobMessage`: one assignment → the `AgentJobRequestMessage` JSON the official runner
 * reads (protocol notes §3), with the top-level fields, variables, contexts and step shapes of
 * the job messages github.com sends (shared/corpus/job-messages), tokens and context data in
 * github.com's spelling (`Key`/`Value`, string tokens as objects).
 *
 * Choices where github.com's values mean nothing here (spec rule 1: local values):
 * - ids: derived (message-ids.ts) unless given; the timeline id is the plan id, as on github.com;
 * - `plan.version` 12 for `PipelineAgentJobRequest` (≥ 8 makes the Worker post `JobCompleted`),
 *   0 for `RunnerJobRequest` (github.com's); `scopeIdentifier` the empty GUID;
 * - `requestId` the job's row id in legacy mode (the target of its lock renewals), 0 otherwise;
 * - `lockedUntil` the lease expiry of the assignment;
 * - `billingOwnerId` the repository owner;
 * - no `workspace` member: github.com never sends one (there is no `workspace:` in workflows).
 */
import { encodeTemplateToken, type JsonObject, type JsonValue, type TemplateToken } from '../../../core/protocol/index.js';
import { toProtocolToken, type TemplateToken as ParserToken } from '../../../core/workflow/index.js';
import { isGuid, jobIdFor, planIdFor } from './message-ids.js';
import { buildContextData } from './message-contexts.js';
import { buildSteps } from './message-steps.js';
import { buildVariables } from './message-variables.js';
import { DEFAULT_JOB_NAME, jobNames, orchestrationId } from './job-names.js';
import { maskHints } from './mask-hints.js';
import { resolveUrls, systemConnection } from './system-connection.js';
import type { JobMessageIds, JobMessageInput } from './types.js';

const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';
const LEGACY_PLAN_VERSION = 12;

export function buildJobMessage(input: JobMessageInput): JsonObject {
  const { assignment, plan } = input;
  const { run, job } = assignment;
  if (input.accessToken === '') throw new TypeError('a job message needs the job access token');
  const messageType = input.messageType ?? 'PipelineAgentJobRequest';
  const ids = messageIds(input);
  const jobName = jobNames(plan.job).get(plan.instance.id) ?? DEFAULT_JOB_NAME;
  const urls = resolveUrls(input.serverUrls, ids, plan.instance.permissions);
  const githubToken = input.githubToken ?? input.accessToken;
  const secrets = input.secrets ?? {};
  const environment = plan.instance.environment;

  return {
    fileTable: [...plan.fileTable],
    mask: maskHints([input.accessToken, githubToken, ...Object.values(secrets)]),
    steps: buildSteps(plan.instance.steps, ids.jobId),
    variables: buildVariables({
      plan,
      messageType,
      githubToken,
      orchestrationId: orchestrationId(ids.planId, plan.job, jobName),
      runnerGroupName: input.runnerGroupName ?? 'Default',
      resultsUrl: urls.results,
      launchUrl: urls.launch,
      secrets,
      extra: input.variables ?? {},
    }),
    messageType,
    plan: {
      scopeIdentifier: EMPTY_GUID,
      planType: 'actions',
      version: messageType === 'RunnerJobRequest' ? 0 : LEGACY_PLAN_VERSION,
      planId: ids.planId,
      artifactUri: '',
      artifactLocation: '',
    },
    timeline: { id: ids.timelineId, changeId: 0, location: null },
    jobId: ids.jobId,
    jobDisplayName: plan.instance.name,
    jobName,
    requestId: input.requestId ?? (messageType === 'RunnerJobRequest' ? 0 : job.id),
    lockedUntil: new Date(assignment.leaseExpiresAt).toISOString(),
    environmentVariables: plan.instance.env.map(tokenJson),
    defaults: plan.instance.defaults.map(tokenJson),
    jobOutputs: optionalToken(plan.instance.outputs),
    jobContainer: optionalToken(plan.instance.container),
    jobServiceContainers: optionalToken(plan.instance.services),
    resources: { endpoints: [systemConnection(urls, input.accessToken)] },
    contextData: buildContextData({ plan, needs: input.needs ?? {}, checkRunId: job.id, ...(input.vars === undefined ? {} : { vars: input.vars }) }),
    snapshot: optionalToken(plan.job.template.snapshot),
    billingOwnerId: input.billingOwnerId ?? run.repository.split('/')[0] ?? '',
    ...(environment === undefined
      ? {}
      : { actionsEnvironment: { name: environment.name, ...(environment.url === undefined ? {} : { url: tokenJson(environment.url) }) } }),
  };
}

function messageIds(input: JobMessageInput): JobMessageIds {
  const planId = input.ids?.planId ?? planIdFor(input.assignment.run);
  const ids = {
    planId,
    timelineId: input.ids?.timelineId ?? planId,
    jobId: input.ids?.jobId ?? jobIdFor(planId, input.assignment.job),
  };
  for (const [name, value] of Object.entries(ids)) {
    if (!isGuid(value)) throw new TypeError(`${name} must be a lower-case GUID, got '${value}'`);
  }
  return ids;
}

function tokenJson(token: ParserToken): JsonValue {
  return encode(toProtocolToken(token));
}

function optionalToken(token: ParserToken | undefined): JsonValue {
  return token === undefined ? null : tokenJson(token);
}

function encode(token: TemplateToken): JsonValue {
  return encodeTemplateToken(token, { style: 'github' });
}

import type { ConcurrencyQueue, EnvironmentApproval, Json, JobRecord, RunRecord, StepRecord, TriggerSource } from '../model/records.js';
import type { Conclusion, Status } from '../model/statuses.js';
import type { JobsTable, RunsTable, StepsTable } from './tables.js';

export function parseJson<T = Json>(text: string | null): T {
  return (text === null ? null : JSON.parse(text)) as T;
}

const num = (value: number | string | null): number | null => (value === null ? null : Number(value));

const queueOf = (value: string): ConcurrencyQueue => (value === 'max' ? 'max' : 'single');

export function toRunRecord(row: RunsTable): RunRecord {
  return {
    id: Number(row.id),
    workflowId: row.workflow_id,
    workflowPath: row.workflow_path,
    workflowName: row.workflow_name,
    repository: row.repository,
    runNumber: Number(row.run_number),
    runAttempt: Number(row.run_attempt),
    displayTitle: row.display_title,
    event: row.event,
    ref: row.ref,
    sha: row.sha,
    actor: row.actor,
    trigger: row.trigger as TriggerSource,
    status: row.status as Status,
    conclusion: row.conclusion as Conclusion | null,
    reason: row.reason,
    concurrencyGroup: row.concurrency_group,
    cancelInProgress: Boolean(row.cancel_in_progress),
    concurrencyQueue: queueOf(row.concurrency_queue),
    concurrencyTicket: num(row.concurrency_ticket),
    payload: parseJson(row.payload),
    cancelRequested: Boolean(row.cancel_requested),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    startedAt: num(row.started_at),
    completedAt: num(row.completed_at),
    vars: parseJson<Record<string, string> | null>(row.vars ?? null) ?? {},
    secretNames: parseJson<string[] | null>(row.secret_names ?? null) ?? [],
  };
}

export function toJobRecord(row: JobsTable): JobRecord {
  return {
    id: Number(row.id),
    runId: Number(row.run_id),
    jobKey: row.job_key,
    instanceId: row.instance_id,
    name: row.name,
    needs: parseJson<string[]>(row.needs),
    matrix: parseJson(row.matrix),
    strategy: parseJson(row.strategy),
    runsOn: parseJson<string[]>(row.runs_on),
    ifCondition: row.if_condition,
    continueOnError: Boolean(row.continue_on_error),
    timeoutMinutes: Number(row.timeout_minutes),
    concurrencyGroup: row.concurrency_group,
    cancelInProgress: Boolean(row.cancel_in_progress),
    concurrencyQueue: queueOf(row.concurrency_queue),
    concurrencyTicket: num(row.concurrency_ticket),
    status: row.status as Status,
    conclusion: row.conclusion as Conclusion | null,
    reason: row.reason,
    outputs: parseJson<Record<string, string>>(row.outputs),
    attempt: Number(row.attempt),
    runnerId: row.runner_id,
    runnerName: row.runner_name,
    leaseExpiresAt: num(row.lease_expires_at),
    cancelRequested: Boolean(row.cancel_requested),
    deferred: Boolean(row.deferred),
    nodeId: row.node_id ?? null,
    heardAt: num(row.heard_at ?? null),
    homeNodeId: row.home_node_id ?? null,
    environment: row.environment ? { name: row.environment, url: row.environment_url ?? null } : null,
    environmentWaitUntil: num(row.environment_wait_until ?? null),
    environmentApproval: row.environment_approval ? parseJson<EnvironmentApproval>(row.environment_approval) : null,
    createdAt: Number(row.created_at),
    queuedAt: num(row.queued_at),
    startedAt: num(row.started_at),
    completedAt: num(row.completed_at),
  };
}

export function toStepRecord(row: StepsTable): StepRecord {
  return {
    jobId: Number(row.job_id),
    number: Number(row.number),
    name: row.name,
    status: row.status as Status,
    conclusion: row.conclusion as Conclusion | null,
    startedAt: num(row.started_at),
    completedAt: num(row.completed_at),
  };
}

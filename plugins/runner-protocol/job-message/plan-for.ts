/**
 * `planFor`: the job of an assignment, planned again from the run's stored workflow files with
 * the run's event, exactly as selection planned it (plus the run's id, number and attempt, which
 * selection did not know yet). The plan is pure, so the same files and event give the same
 * instance ids; the assignment's `instanceId` picks the instance.
 *
 * The run's files are keyed by path for the run's repository (`.github/workflows/ci.yml`) and by
 * `owner/repo/path@ref` for workflows of other repositories, kept with the commit they were read
 * at. A called workflow appears in the file table as `owner/repo/path@sha` (github.com's spelling).
 */
import { storedWorkflowLoader, type Assignment, type RunFiles, type RunRecord } from '../../../core/engine/index.js';
import {
  expandJob,
  flattenJobs,
  loadWorkflow,
  planWorkflow,
  type ExpressionObject,
  type NeedsContext,
  type PlanEvent,
  type PlannedJob,
  type WorkflowLoader,
} from '../../../core/workflow/index.js';
import { jobServer } from './job-server.js';
import { applyTokenCeiling, type TokenCeiling } from './token-ceiling.js';
import type { JobPlan, WorkflowSource } from './types.js';

export interface PlanForOptions {
  /** The public URL; `github.server_url` is derived from it for the toolkit's host gate (job-server.ts). */
  readonly serverUrl: string;
  /** The `vars` context; default the run's (what selection planned it with). */
  readonly vars?: Readonly<Record<string, string>>;
  readonly secretNames?: readonly string[];
  /** Results of the jobs needed, for a job whose fields had to wait for them. */
  readonly needs?: NeedsContext;
  /** `[token_permissions_ceiling]` of the operator config: caps the instance's permissions (token-ceiling.ts). */
  readonly ceiling?: TokenCeiling;
}

export async function planFor(assignment: Assignment, options: PlanForOptions): Promise<JobPlan> {
  const { run, job, files } = assignment;
  const content = files.get(run.workflowPath)?.content;
  if (content === undefined) throw new Error(`run ${run.id} has no stored workflow file '${run.workflowPath}'`);
  const entry: WorkflowSource = { repository: run.repository, path: run.workflowPath, ref: run.ref, sha: run.sha, called: false };
  const sources = new Map<string, WorkflowSource>([[run.workflowPath, entry]]);

  const loaded = await loadWorkflow({ name: run.workflowPath, content }, { loader: filesLoader(run, files, sources) });
  if (loaded.template === undefined || loaded.errors.length > 0) {
    const first = loaded.errors[0]?.githubMessage ?? 'no template';
    throw new Error(`the workflow of run ${run.id} no longer loads: ${first}`);
  }
  const workflow = planWorkflow(loaded, {
    event: planEvent(run),
    workflowPath: run.workflowPath,
    server: jobServer(options.serverUrl),
    run: { id: run.id, number: run.runNumber, attempt: run.runAttempt },
    vars: options.vars ?? run.vars,
    ...(options.secretNames === undefined ? {} : { secretNames: options.secretNames }),
  });

  const found = findInstance(flattenJobs(workflow.jobs), job.instanceId, options.needs);
  if (found === undefined) {
    throw new Error(`job '${job.instanceId}' of run ${run.id} is not in the plan of ${run.workflowPath} any more`);
  }
  const fileName = loaded.fileTable[(found.job.template.id.file ?? 1) - 1] ?? run.workflowPath;
  const { permissions, capped } = applyTokenCeiling(found.instance.permissions, options.ceiling);
  return {
    workflow,
    job: found.job,
    instance: permissions === found.instance.permissions ? found.instance : { ...found.instance, permissions },
    cappedPermissions: capped,
    fileTable: loaded.fileTable,
    source: sources.get(fileName) ?? entry,
  };
}

function findInstance(jobs: readonly PlannedJob[], instanceId: string, needs: NeedsContext | undefined) {
  for (const planned of jobs) {
    // A job whose fields waited for `needs` is expanded again with them, as the engine does.
    const waiting = planned.deferred.length > 0 || planned.instances.some((instance) => instance.deferred.length > 0);
    const job = waiting && needs !== undefined ? expandJob(planned.template, planned.scope, { needs }) : planned;
    const instance = job.kind === 'job' ? job.instances.find((candidate) => candidate.id === instanceId) : undefined;
    if (instance !== undefined) return { job, instance };
  }
  return undefined;
}

/** Called workflows come from the run's files; each gets its file-table name and its source. */
function filesLoader(run: RunRecord, files: RunFiles, sources: Map<string, WorkflowSource>): WorkflowLoader {
  return storedWorkflowLoader(files, (ref, file) => {
    // `./path` in the run's own workflows: the run's repository at the run's commit. A file of
    // another repository: the commit it was read at when the run was created (a run created
    // before commits were kept has only the ref).
    const source: WorkflowSource =
      ref.repository === undefined
        ? { repository: run.repository, path: ref.path, ref: run.ref, sha: run.sha, called: true }
        : { repository: ref.repository, path: ref.path, ref: file.commit?.ref ?? ref.ref ?? '', sha: file.commit?.sha ?? ref.ref ?? '', called: true };
    const name = `${source.repository}/${source.path}@${source.sha}`;
    sources.set(name, source);
    return name;
  });
}

/** The run's event as selection saw it; repository and actor from the payload when it has them. */
function planEvent(run: RunRecord): PlanEvent {
  const payload = isObject(run.payload) ? (run.payload as ExpressionObject) : {};
  const repository = isObject(payload['repository']) ? (payload['repository'] as ExpressionObject) : undefined;
  const sender = isObject(payload['sender']) ? (payload['sender'] as ExpressionObject) : undefined;
  return {
    name: run.event,
    payload,
    ref: run.ref,
    sha: run.sha,
    ...(typeof repository?.['full_name'] === 'string' ? {} : { repository: { fullName: run.repository, id: 0, ownerId: 0 } }),
    ...(typeof sender?.['login'] === 'string' ? {} : { actor: { login: run.actor, id: 0 } }),
  };
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

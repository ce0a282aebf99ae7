import {
  formatWorkflowError,
  jobGraph,
  loadWorkflow,
  planWorkflow,
  type JobNode,
  type PlanEvent,
  type WorkflowLoader,
  type WorkflowPlan,
} from '../../workflow/index.js';
import type { Json, TriggerSource } from '../model/records.js';
import type { CreateRunInput, NewJob } from '../runs/create-run.js';
import { workflowId } from './workflow-id.js';

export interface WorkflowFileAtCommit {
  /** Path in the repository, e.g. `.github/workflows/ci.yml`. */
  readonly path: string;
  readonly content: string;
}

export interface SelectionRequest {
  readonly event: PlanEvent & { readonly ref: string; readonly sha: string };
  readonly repository: string;
  readonly actor: string;
  readonly trigger: TriggerSource;
  /** The workflow files to consider (for webhooks: every file under .github/workflows at the commit). */
  readonly workflows: readonly WorkflowFileAtCommit[];
  /** Reads called workflows (local at the commit, or remote). */
  readonly loader?: WorkflowLoader;
  /** Only this job and the jobs it needs, transitively (`svc run --job`). */
  readonly job?: string;
  readonly vars?: Readonly<Record<string, string>>;
  readonly serverUrl: string;
}

export type Selection =
  | { readonly kind: 'run'; readonly path: string; readonly input: CreateRunInput; readonly warnings: readonly string[] }
  | { readonly kind: 'not_triggered'; readonly path: string; readonly reason: string }
  /** The file cannot run: GitHub records a failed run with the errors; so do we. */
  | { readonly kind: 'invalid'; readonly path: string; readonly name: string; readonly errors: readonly string[] };

/**
 * Decides which workflows an event runs and what each run holds, without touching the store:
 * each file is loaded and validated, its triggers matched, and its jobs planned (matrix
 * expanded, reusable workflows inlined, `needs` checked, `run-name` evaluated).
 */
export async function selectRuns(request: SelectionRequest): Promise<Selection[]> {
  const selections: Selection[] = [];
  for (const file of request.workflows) selections.push(await selectOne(request, file));
  return selections;
}

async function selectOne(request: SelectionRequest, file: WorkflowFileAtCommit): Promise<Selection> {
  const loaded = await loadWorkflow({ name: file.path, content: file.content }, request.loader ? { loader: request.loader } : {});
  if (loaded.errors.length > 0 || !loaded.template) {
    return { kind: 'invalid', path: file.path, name: file.path, errors: loaded.errors.map(formatWorkflowError) };
  }
  const plan = planWorkflow(loaded, {
    event: request.event,
    workflowPath: file.path,
    server: { serverUrl: request.serverUrl },
    ...(request.vars ? { vars: request.vars } : {}),
  });
  if (plan.trigger.status !== 'triggered') {
    const reason = plan.trigger.status === 'invalid' ? plan.trigger.errors.join('; ') : plan.trigger.reason;
    if (plan.trigger.status === 'invalid') return { kind: 'invalid', path: file.path, name: plan.name, errors: [reason] };
    return { kind: 'not_triggered', path: file.path, reason };
  }
  if (plan.errors.length > 0) return { kind: 'invalid', path: file.path, name: plan.name, errors: plan.errors.map(planErrorText) };

  const nodes = keepJob(jobGraph(plan), request.job);
  if (request.job !== undefined && nodes.length === 0) {
    return { kind: 'invalid', path: file.path, name: plan.name, errors: [`job '${request.job}' is not in ${file.path} (jobs: ${jobGraph(plan).map((n) => n.job.path).join(', ')})`] };
  }
  const deferred = nodes.filter((node) => node.job.deferred.length > 0 || node.job.instances.some((i) => i.deferred.length > 0));
  if (deferred.length > 0) {
    return {
      kind: 'invalid',
      path: file.path,
      name: plan.name,
      errors: deferred.map(
        (node) =>
          `not_implemented: job '${node.job.path}' has fields that read the results of the jobs it needs (${[...node.job.deferred, ...node.job.instances.flatMap((i) => i.deferred)].map((d) => d.field).join(', ')}); expanding them at queue time is not built yet`,
      ),
    };
  }
  return { kind: 'run', path: file.path, input: runInputFrom(request, file, plan, nodes), warnings: plan.warnings };
}

function runInputFrom(request: SelectionRequest, file: WorkflowFileAtCommit, plan: WorkflowPlan, nodes: readonly JobNode[]): CreateRunInput {
  const jobs: NewJob[] = nodes.flatMap(({ job, waitsFor }) =>
    job.instances.map((instance) => ({
      jobKey: job.path,
      instanceId: instance.id,
      name: instance.name,
      needs: waitsFor,
      matrix: (instance.matrix ?? null) as Json,
      strategy: job.matrix ? (instance.strategy as unknown as Json) : null,
      runsOn: instance.runsOn?.labels ?? [],
      ifCondition: job.if,
      continueOnError: instance.continueOnError,
      timeoutMinutes: instance.timeoutMinutes,
      // GitHub compares group names without regard to case: the engine keys on the lowered name.
      concurrency: instance.concurrency ? { group: instance.concurrency.key, cancelInProgress: instance.concurrency.cancelInProgress } : null,
    })),
  );
  return {
    workflow: { id: workflowId(request.repository, file.path), path: file.path, name: plan.name },
    repository: request.repository,
    event: request.event.name,
    ref: request.event.ref,
    sha: request.event.sha,
    actor: request.actor,
    trigger: request.trigger,
    payload: (request.event.payload ?? {}) as Json,
    displayTitle: plan.runName ?? plan.name,
    concurrency: plan.concurrency ? { group: plan.concurrency.key, cancelInProgress: plan.concurrency.cancelInProgress } : null,
    files: [{ path: file.path, content: file.content }],
    jobs,
  };
}

/** `--job`: the job and everything it needs, transitively (by top-level job key or job path). */
function keepJob(nodes: readonly JobNode[], job: string | undefined): JobNode[] {
  if (job === undefined) return [...nodes];
  const byPath = new Map(nodes.map((node) => [node.job.path, node]));
  const keep = new Set<string>();
  const visit = (path: string) => {
    if (keep.has(path)) return;
    keep.add(path);
    for (const next of byPath.get(path)?.waitsFor ?? []) visit(next);
  };
  for (const node of nodes) if (node.job.path === job || node.job.key === job || node.job.path.startsWith(`${job}/`)) visit(node.job.path);
  return nodes.filter((node) => keep.has(node.job.path));
}

function planErrorText(error: { readonly file?: string; readonly line?: number; readonly column?: number; readonly message: string }): string {
  return error.file === undefined ? error.message : `${error.file}:${error.line ?? 0}:${error.column ?? 0}: ${error.message}`;
}

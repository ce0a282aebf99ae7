import {
  formatWorkflowError,
  jobGraph,
  loadWorkflow,
  planWorkflow,
  type JobNode,
  type LoadedWorkflowFile,
  type PlanEvent,
  type UnexpectedInputs,
  type WorkflowPlan,
  type WorkflowRef,
} from '../../workflow/index.js';
import { InputError } from '../../kernel/index.js';
import type { Json, RunSuppliedValues, TriggerSource } from '../model/records.js';
import type { CreateRunInput, NewJob } from '../runs/create-run.js';
import { runFileKey, type WorkflowCommit } from '../runs/run-files.js';
import { toNewJobs } from './new-jobs.js';
import { workflowId } from './workflow-id.js';

export interface WorkflowFileAtCommit {
  /** Path in the repository, e.g. `.github/workflows/ci.yml`; `owner/repo/path@ref` for a called file of another repository. */
  readonly path: string;
  readonly content: string;
  /** Where a file of another repository was read. */
  readonly commit?: WorkflowCommit;
}

/** A called workflow as a selection's loader reads it; `commit` for a file of another repository. */
export interface SelectedWorkflowFile extends LoadedWorkflowFile {
  readonly commit?: WorkflowCommit;
}

/** Reads called workflows for a selection (a `WorkflowLoader` that also says where remote files were read). */
export interface SelectionLoader {
  read(ref: WorkflowRef): Promise<SelectedWorkflowFile | undefined>;
}

export interface SelectionRequest {
  readonly event: PlanEvent & { readonly ref: string; readonly sha: string };
  readonly repository: string;
  readonly actor: string;
  readonly trigger: TriggerSource;
  /** The workflow files to consider (for webhooks: every file under .github/workflows at the commit). */
  readonly workflows: readonly WorkflowFileAtCommit[];
  /** Reads called workflows (local at the commit, or remote); what it reads is kept with the run. */
  readonly loader?: SelectionLoader;
  /** Only these jobs and the jobs they need, transitively (`svc run --job`, repeatable). */
  readonly job?: string | readonly string[];
  /** The `vars` context (global < repository < run-supplied), kept with the run. */
  readonly vars?: Readonly<Record<string, string>>;
  /**
   * Secret names the workflows can read (stored and run-supplied), kept with the run; when given,
   * a called workflow's required secret that `secrets: inherit` cannot provide fails the run.
   */
  readonly secretNames?: readonly string[];
  /** Values the submission brought for its run only, sealed (core/ports/job-values.ts). */
  readonly supplied?: RunSuppliedValues;
  readonly serverUrl: string;
  /**
   * `workflow_dispatch` inputs no workflow declares: kept in the event payload (default, the
   * spec's forge-shaped dispatch) or refused, as GitHub's dispatch API does (local submissions).
   */
  readonly unexpectedInputs?: UnexpectedInputs;
}

export type Selection =
  | { readonly kind: 'run'; readonly path: string; readonly input: CreateRunInput; readonly warnings: readonly string[] }
  | { readonly kind: 'not_triggered'; readonly path: string; readonly reason: string }
  /** `--job` names no job of the file: nothing is created. */
  | { readonly kind: 'unknown_job'; readonly path: string; readonly job: string; readonly jobs: readonly string[] }
  /** The file cannot run: GitHub records a failed run with the errors; so do we. */
  | { readonly kind: 'invalid'; readonly path: string; readonly name: string; readonly errors: readonly string[] }
  /** The dispatch's inputs do not fit the file's: refused before any run exists, as GitHub does. */
  | { readonly kind: 'invalid_inputs'; readonly path: string; readonly errors: readonly string[] };

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
  const read = recordingLoader(request.loader);
  const loaded = await loadWorkflow({ name: file.path, content: file.content }, read.loader ? { loader: read.loader } : {});
  if (loaded.errors.length > 0 || !loaded.template) {
    return { kind: 'invalid', path: file.path, name: file.path, errors: loaded.errors.map(formatWorkflowError) };
  }
  let plan: WorkflowPlan;
  try {
    plan = planWorkflow(loaded, {
      event: request.event,
      workflowPath: file.path,
      server: { serverUrl: request.serverUrl },
      ...(request.vars ? { vars: request.vars } : {}),
      ...(request.secretNames ? { secretNames: request.secretNames } : {}),
      ...(request.unexpectedInputs ? { unexpectedInputs: request.unexpectedInputs } : {}),
    });
  } catch (error) {
    // The planner refuses events it cannot read (a payload whose repository or sender is not
    // an object, a missing commit): that is the submitter's input, not a server fault.
    if (error instanceof TypeError) throw new InputError(`the ${request.event.name} event cannot be planned: ${error.message}`, { code: 'invalid_event' });
    throw error;
  }
  if (plan.trigger.status !== 'triggered') {
    const reason = plan.trigger.status === 'invalid' ? plan.trigger.errors.join('; ') : plan.trigger.reason;
    if (plan.trigger.status === 'invalid') return { kind: 'invalid', path: file.path, name: plan.name, errors: [reason] };
    return { kind: 'not_triggered', path: file.path, reason };
  }
  if (plan.inputErrors.length > 0) return { kind: 'invalid_inputs', path: file.path, errors: plan.inputErrors };
  if (plan.errors.length > 0) return { kind: 'invalid', path: file.path, name: plan.name, errors: plan.errors.map(planErrorText) };

  const graph = jobGraph(plan);
  const wanted = request.job === undefined ? undefined : typeof request.job === 'string' ? [request.job] : request.job;
  const unknown = wanted?.find((job) => !graph.some((node) => namesJob(node, job)));
  if (unknown !== undefined) return { kind: 'unknown_job', path: file.path, job: unknown, jobs: graph.map((n) => n.job.path) };
  const nodes = keepJobs(graph, wanted);
  return { kind: 'run', path: file.path, input: runInputFrom(request, [file, ...read.files], plan, nodes), warnings: plan.warnings };
}

function runInputFrom(request: SelectionRequest, files: readonly WorkflowFileAtCommit[], plan: WorkflowPlan, nodes: readonly JobNode[]): CreateRunInput {
  const [file] = files;
  if (file === undefined) throw new Error('a run needs its workflow file');
  const jobs: NewJob[] = nodes.flatMap(({ job, waitsFor }) => toNewJobs(job, waitsFor));
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
    concurrency: plan.concurrency ? { group: plan.concurrency.key, cancelInProgress: plan.concurrency.cancelInProgress, queue: plan.concurrency.queue } : null,
    // The workflow and every workflow it calls, as read now: re-runs and deferred jobs plan from these.
    files: uniqueByPath(files),
    jobs,
    ...(request.vars === undefined ? {} : { vars: request.vars }),
    ...(request.secretNames === undefined ? {} : { secretNames: request.secretNames }),
    ...(request.supplied === undefined ? {} : { supplied: request.supplied }),
  };
}

/** Wraps the loader to keep what it read (every called workflow, local or remote) for the run's record. */
function recordingLoader(loader: SelectionLoader | undefined): { readonly loader: SelectionLoader | undefined; readonly files: WorkflowFileAtCommit[] } {
  const files: WorkflowFileAtCommit[] = [];
  if (loader === undefined) return { loader, files };
  return {
    files,
    loader: {
      read: async (ref) => {
        const file = await loader.read(ref);
        if (file !== undefined) files.push({ path: runFileKey(ref), content: file.content, ...(file.commit === undefined ? {} : { commit: file.commit }) });
        return file;
      },
    },
  };
}

function uniqueByPath(files: readonly WorkflowFileAtCommit[]): WorkflowFileAtCommit[] {
  const seen = new Map<string, WorkflowFileAtCommit>();
  for (const file of files) if (!seen.has(file.path)) seen.set(file.path, file);
  return [...seen.values()];
}

/** `--job`: the jobs and everything they need, transitively (by top-level job key or job path). */
function keepJobs(nodes: readonly JobNode[], jobs: readonly string[] | undefined): JobNode[] {
  if (jobs === undefined) return [...nodes];
  const byPath = new Map(nodes.map((node) => [node.job.path, node]));
  const keep = new Set<string>();
  const visit = (path: string) => {
    if (keep.has(path)) return;
    keep.add(path);
    for (const next of byPath.get(path)?.waitsFor ?? []) visit(next);
  };
  for (const node of nodes) if (jobs.some((job) => namesJob(node, job))) visit(node.job.path);
  return nodes.filter((node) => keep.has(node.job.path));
}

function namesJob(node: JobNode, job: string): boolean {
  return node.job.path === job || node.job.key === job || node.job.path.startsWith(`${job}/`);
}

function planErrorText(error: { readonly file?: string; readonly line?: number; readonly column?: number; readonly message: string }): string {
  return error.file === undefined ? error.message : `${error.file}:${error.line ?? 0}:${error.column ?? 0}: ${error.message}`;
}

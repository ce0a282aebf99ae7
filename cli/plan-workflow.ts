/** What `svc plan` does (plan-command.ts declares the command and its contract). */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  formatWorkflowError,
  isReusableJob,
  loadWorkflow,
  localEvent,
  planView,
  planWorkflow,
  renderGraph,
  renderHeader,
  renderStages,
  ZERO_SHA,
  type JsonObject,
  type LoadedWorkflowFile,
  type PlanError,
  type WorkflowError,
  type WorkflowLoader,
  type WorkflowPlan,
  type WorkflowRef,
} from '../core/workflow/index.js';

export interface PlanFlags {
  readonly file: string;
  readonly json?: boolean;
  readonly event: string;
  readonly payload?: string;
  readonly graph?: boolean;
}

/** A problem for the user: printed as is, exit 1. */
export class PlanFailure extends Error {}

export async function runPlan(flags: PlanFlags): Promise<number> {
  if (!/^[a-z][a-z_]*$/.test(flags.event)) throw new PlanFailure(`--event '${flags.event}' is not an event name (push, pull_request, workflow_dispatch, ...)`);
  const file = resolve(flags.file);
  const content = readText(file, 'cannot read the workflow file');
  const root = repositoryRoot(file);
  const name = relative(root, file).split(sep).join('/');
  const loader = new LocalLoader(root, { [name]: content });
  const loaded = await loadWorkflow({ name, content }, { loader });
  if (loaded.errors.length > 0) return fail(await loadErrors(loaded.errors, loader));

  const git = gitState(root);
  const payload = readPayload(flags.payload);
  const event = localEvent({
    name: flags.event,
    repository: git.repository,
    ref: git.ref,
    sha: git.sha,
    actor: process.env.USER ?? 'local',
    ...(payload === undefined ? {} : { payload }),
  });
  let plan: WorkflowPlan;
  try {
    // As `svc run` submits it: inputs the workflow does not declare are refused.
    plan = planWorkflow(loaded, { event, workflowPath: name, unexpectedInputs: 'refuse' });
  } catch (error) {
    // The payload lacks what the github context needs (a repository without full_name, ...).
    if (error instanceof TypeError) throw new PlanFailure(error.message);
    throw error;
  }
  if (plan.trigger.status === 'invalid') return fail(plan.trigger.errors.map((message) => `${name}: ${message}`));
  if (plan.inputErrors.length > 0 && plan.trigger.status === 'triggered') return fail(plan.inputErrors.map((message) => `${name}: ${message}`));
  if (plan.errors.length > 0) return fail(plan.errors.map(formatPlanError));
  for (const warning of plan.warnings) process.stderr.write(`warning: ${warning}\n`);
  if (plan.trigger.status === 'skipped') {
    process.stderr.write(`note: the ${plan.event} event does not trigger this workflow (${plan.trigger.reason}); planned anyway\n`);
  }
  if (plan.trigger.status === 'undetermined') {
    process.stderr.write(`note: cannot tell whether the ${plan.event} event triggers this workflow (${plan.trigger.reason}; give it with --payload); planned anyway\n`);
  }

  if (flags.json) process.stdout.write(`${JSON.stringify(planView(plan), null, 2)}\n`);
  else if (flags.graph) process.stdout.write(renderHeader(plan) + renderGraph(plan, process.stdout.columns ?? 100));
  else process.stdout.write(renderStages(plan));
  return 0;
}

function fail(lines: readonly string[]): number {
  for (const line of lines) process.stderr.write(`${line}\n`);
  return 1;
}

function formatPlanError(error: PlanError): string {
  return formatWorkflowError({ ...error, githubMessage: error.message });
}

/** Local called workflows from the repository root; remote ones are recorded and not found. */
class LocalLoader implements WorkflowLoader {
  readonly remotes: string[] = [];
  readonly files: Record<string, string>;
  readonly #root: string;

  constructor(root: string, files: Record<string, string>) {
    this.#root = root;
    this.files = { ...files };
  }

  read(ref: WorkflowRef): Promise<LoadedWorkflowFile | undefined> {
    if (ref.repository !== undefined) {
      this.remotes.push(`${ref.repository}/${ref.path}@${ref.ref ?? ''}`);
      return Promise.resolve(undefined);
    }
    const path = resolve(this.#root, ref.path);
    const inside = relative(this.#root, path);
    if (inside.startsWith('..') || isAbsolute(inside) || !existsSync(path)) return Promise.resolve(undefined);
    const content = readFileSync(path, 'utf8');
    this.files[ref.path] = content;
    return Promise.resolve({ name: ref.path, content });
  }
}

/**
 * The load errors, with "Unable to find reusable workflow" for a remote reference replaced by
 * what the user can do about it, at the calling job.
 */
async function loadErrors(errors: readonly WorkflowError[], loader: LocalLoader): Promise<string[]> {
  if (loader.remotes.length === 0) return errors.map(formatWorkflowError);
  const lines: string[] = [];
  for (const [file, content] of Object.entries(loader.files)) {
    const scanned = await loadWorkflow({ name: file, content }, { skipReusableWorkflows: true });
    for (const job of scanned.template?.jobs ?? []) {
      if (!isReusableJob(job) || !loader.remotes.includes(job.ref.value)) continue;
      const start = job.ref.range?.start;
      const place = start === undefined ? file : `${file}:${start.line}:${start.column}`;
      lines.push(`${place}: job '${job.id.value}' calls the remote reusable workflow ${job.ref.value}: remote reusable workflows need the server (svc plan reads local files only)`);
    }
  }
  const others = errors.filter((error) => !error.message.includes('Unable to find reusable workflow')).map(formatWorkflowError);
  return [...lines, ...others];
}

function repositoryRoot(file: string): string {
  const directory = dirname(file);
  if (basename(directory) === 'workflows' && basename(dirname(directory)) === '.github') return dirname(dirname(directory));
  for (let current = directory; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current;
    if (dirname(current) === current) return directory;
  }
}

interface GitState {
  readonly repository: string;
  readonly ref: string;
  readonly sha: string;
}

/** Branch, commit and `owner/name` from git; `refs/heads/main` and a zero commit without it. */
function gitState(root: string): GitState {
  const git = (...args: string[]): string | undefined => {
    try {
      return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
    } catch {
      return undefined;
    }
  };
  const branch = git('rev-parse', '--abbrev-ref', 'HEAD');
  const sha = branch === undefined ? undefined : git('rev-parse', 'HEAD');
  const origin = branch === undefined ? undefined : git('remote', 'get-url', 'origin');
  const fromOrigin = origin === undefined ? undefined : /[/:]([^/:]+\/[^/]+?)(?:\.git)?\/?$/.exec(origin)?.[1];
  return {
    repository: fromOrigin ?? `local/${basename(root) || 'repository'}`,
    // A detached HEAD has no branch; plan as if on main.
    ref: branch === undefined || branch === 'HEAD' ? 'refs/heads/main' : `refs/heads/${branch}`,
    sha: sha !== undefined && /^[0-9a-f]{40,64}$/.test(sha) ? sha : ZERO_SHA,
  };
}

function readPayload(file: string | undefined): JsonObject | undefined {
  if (file === undefined) return undefined;
  const text = readText(resolve(file), '--payload: cannot read');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PlanFailure(`--payload ${file}: not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PlanFailure(`--payload ${file}: the payload must be a JSON object`);
  return value as JsonObject;
}

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new PlanFailure(`${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

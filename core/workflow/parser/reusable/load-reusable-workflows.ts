/**
 * Fix "nested-reusable-workflows": GitHub loads called workflows recursively (up to
 * `maxNestedReusableWorkflowsDepth` levels, `maxFiles` files); the TypeScript parser fetches
 * one level through its file-provider hook. We load them through the WorkflowLoader port, one
 * calling job at a time, stopping at the first error like GitHub. Errors found while loading a
 * called workflow that do not point into the caller's file are prefixed with the call site.
 */
import type { ConvertedReusableWorkflowJob, ConvertedWorkflowJob } from '../model-types.js';
import { isReusableJob } from '../model-types.js';
import type { LoadSettings } from '../options.js';
import type { ParseContext } from '../parse-context.js';
import { readWorkflowFile } from '../read-workflow-file.js';
import type { TemplateMemory } from '../template-memory.js';
import type { LoadedWorkflowFile, WorkflowLoader, WorkflowRef } from '../types.js';
import { siteOf } from '../convert/error-site.js';
import { convertReferencedWorkflow } from './convert-referenced-workflow.js';
import { toWorkflowRef, workflowRefKey } from './workflow-ref.js';

export interface LoadSession {
  readonly context: ParseContext;
  readonly settings: LoadSettings;
  readonly memory: TemplateMemory;
}

interface LoaderState extends LoadSession {
  readonly loader: WorkflowLoader;
  /** Fetched files by reference, so a workflow called twice is fetched once. */
  readonly cache: Map<string, LoadedWorkflowFile | undefined>;
  /** Where each loaded file came from, to resolve its own `./` references. */
  readonly origins: Map<string, WorkflowRef>;
  readonly referencedFiles: Set<string>;
}

export async function loadReusableWorkflows(session: LoadSession, workflow: { readonly jobs: readonly ConvertedWorkflowJob[] }): Promise<void> {
  const loader = session.settings.loader;
  if (session.settings.skipReusableWorkflows || loader === undefined) return;
  const state: LoaderState = { ...session, loader, cache: new Map(), origins: new Map(), referencedFiles: new Set() };
  for (const job of workflow.jobs) {
    if (!isReusableJob(job)) continue;
    await loadRecursive(state, job, 1);
    if (session.context.collector.count > 0) return;
  }
}

async function loadRecursive(state: LoaderState, job: ConvertedReusableWorkflowJob, depth: number): Promise<void> {
  const { context, settings } = state;
  const collector = context.collector;
  const max = settings.maxNestedReusableWorkflowsDepth;
  if (depth > max) {
    collector.addUnplaced(`Nested reusable workflow depth exceeded ${max}.`);
    return;
  }
  const callerFile = job.ref.file === undefined ? undefined : context.getFileName(job.ref.file);
  try {
    const file = await fetchCalledWorkflow(state, job, callerFile);
    if (file === undefined) return;
    const root = readWorkflowFile(context, file, settings, state.memory);
    if (root === undefined || collector.count > 0) return;
    convertReferencedWorkflow(context, root, job, settings.permissionsPolicy, file.trusted ?? false);
    if (collector.count > 0) return;
  } finally {
    if (collector.count > 0 && callerFile !== undefined) collector.prefixForCaller(callerFile, job.ref.line, job.ref.col);
  }
  for (const nested of job.jobs ?? []) {
    if (!isReusableJob(nested)) continue;
    await loadRecursive(state, nested, depth + 1);
    if (collector.count > 0) return;
  }
}

async function fetchCalledWorkflow(
  state: LoaderState,
  job: ConvertedReusableWorkflowJob,
  callerFile: string | undefined,
): Promise<LoadedWorkflowFile | undefined> {
  const { context, settings } = state;
  const request = toWorkflowRef(job.ref.value, callerFile === undefined ? undefined : state.origins.get(callerFile));
  if (request === undefined) {
    context.collector.add(siteOf(context, job.ref), 'Unable to find reusable workflow');
    return undefined;
  }
  const key = workflowRefKey(request);
  state.referencedFiles.add(key.toLowerCase());
  // The entry file counts too.
  if (settings.maxFiles > 0 && state.referencedFiles.size + 1 > settings.maxFiles) {
    context.collector.addUnplaced(`The maximum file count of ${settings.maxFiles} has been exceeded`);
    return undefined;
  }
  let file = state.cache.get(key);
  if (!state.cache.has(key)) {
    file = await state.loader.read(request);
    state.cache.set(key, file);
  }
  if (file === undefined) {
    context.collector.add(siteOf(context, job.ref), 'Unable to find reusable workflow');
    return undefined;
  }
  state.origins.set(file.name, request);
  return file;
}

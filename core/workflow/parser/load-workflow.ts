/**
 * loadWorkflow: one workflow file (and the workflows it calls) → template tokens, converted
 * workflow and GitHub-worded errors. The steps follow GitHub's parser: read the entry file,
 * convert it, load called workflows, check the job count; each stops at the first errors.
 */
import { FeatureFlags } from '@actions/expressions/features';
import { convertEntry } from './convert/convert-entry.js';
import { ErrorCollector } from './error-collector.js';
import type { ConvertedWorkflow } from './model-types.js';
import { resolveOptions } from './options.js';
import { ParseContext } from './parse-context.js';
import { readWorkflowFile } from './read-workflow-file.js';
import { checkJobLimit } from './reusable/job-limit.js';
import { loadReusableWorkflows } from './reusable/load-reusable-workflows.js';
import { TemplateMemory } from './template-memory.js';
import type { LoadWorkflowOptions, LoadWorkflowResult, WorkflowFile } from './types.js';
import { loadJsonBackedModules } from './upstream-modules.js';

export async function loadWorkflow(file: WorkflowFile, options: LoadWorkflowOptions = {}): Promise<LoadWorkflowResult> {
  const settings = resolveOptions(options);
  const upstream = await loadJsonBackedModules();
  const collector = new ErrorCollector();
  const context = new ParseContext(upstream.schema, collector);
  const featureFlags = new FeatureFlags(settings.experimentalFeatures);
  context.state['featureFlags'] = featureFlags;
  const memory = new TemplateMemory(settings.maxResultSize);

  const tokens = readWorkflowFile(context, file, settings, memory);
  let template: ConvertedWorkflow | undefined;
  if (tokens !== undefined && collector.count === 0) {
    template = await convertEntry(context, tokens, upstream, { strictEvents: settings.strictEvents, featureFlags });
    if (collector.count === 0) {
      await loadReusableWorkflows({ context, settings, memory }, template);
    }
    if (collector.count === 0) checkJobLimit(collector, template, settings.maxJobLimit);
  }
  const errors = collector.list();
  return {
    template: errors.length === 0 ? template : undefined,
    tokens,
    errors,
    fileTable: context.getFileTable(),
  };
}

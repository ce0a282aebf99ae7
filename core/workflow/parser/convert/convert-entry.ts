/**
 * The entry workflow's token tree → converted workflow: the parser's `convertWorkflowTemplate`
 * (called workflows are ours to load, so it fetches none), then the completion fixes.
 *
 * Fix "relaxed-events" (2/2, see read-workflow-file.ts): GitHub's parser does not convert `on:`
 * beyond the `workflow_dispatch` input types, so it accepts what the TypeScript event converter
 * rejects. Unless `strictEvents` asks for the language service's checks, `on:` is converted on
 * the side (for `events`) and its complaints dropped.
 */
import type { FeatureFlags } from '@actions/expressions/features';
import { convertOn } from '@actions/workflow-parser/model/converter/events';
import type { EventsConfig } from '@actions/workflow-parser/model/workflow-template';
import { TemplateContext, TemplateValidationErrors } from '@actions/workflow-parser/templates/template-context';
import { MappingToken } from '@actions/workflow-parser/templates/tokens/index';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/index';
import { isMapping } from '@actions/workflow-parser/templates/tokens/type-guards';
import { NoOperationTraceWriter } from '@actions/workflow-parser/templates/trace-writer';
import type { ConvertedWorkflow } from '../model-types.js';
import type { ParseContext } from '../parse-context.js';
import { permissionsFromToken } from '../permissions/permissions.js';
import type { JsonBackedModules } from '../upstream-modules.js';
import { validateConcurrencyQueue } from './concurrency-queue.js';
import { dispatchInputTypes } from './dispatch-input-types.js';
import { completeJobs } from './job-completion.js';

export interface ConvertEntryOptions {
  readonly strictEvents: boolean;
  readonly featureFlags: FeatureFlags;
}

export async function convertEntry(
  context: ParseContext,
  root: TemplateToken,
  upstream: JsonBackedModules,
  options: ConvertEntryOptions,
): Promise<ConvertedWorkflow> {
  const onToken = isMapping(root) ? root.find('on') : undefined;
  const converted = (await upstream.convertWorkflowTemplate(
    context,
    options.strictEvents || onToken === undefined ? root : withoutKey(root as MappingToken, 'on'),
    undefined,
    { fetchReusableWorkflowDepth: 0, featureFlags: options.featureFlags },
  )) as unknown as ConvertedWorkflow; // completed below into the documented superset
  converted.jobs ??= [];
  converted.events ??= {};
  if (!options.strictEvents && onToken !== undefined) {
    converted.events = quietEvents(upstream, onToken, options.featureFlags);
  }
  if (!isMapping(root)) return converted;

  for (const pair of root) {
    switch (pair.key.toString()) {
      case 'on': {
        const types = dispatchInputTypes(pair.value);
        if (Object.keys(types).length > 0) converted['input-types'] = types;
        break;
      }
      case 'permissions':
        converted.permissions = permissionsFromToken(pair.value);
        break;
      case 'defaults':
        converted.defaults = pair.value;
        break;
      case 'concurrency':
        validateConcurrencyQueue(context, pair.value);
        break;
      case 'jobs':
        completeJobs(context, pair.value, converted.jobs);
        break;
    }
  }
  // GitHub hands the workflow's permissions to every job that declares none.
  if (converted.permissions !== undefined) {
    for (const job of converted.jobs) job.permissions ??= converted.permissions;
  }
  return converted;
}

function withoutKey(mapping: MappingToken, key: string): MappingToken {
  const copy = new MappingToken(mapping.file, mapping.range, mapping.definitionInfo);
  for (const pair of mapping) {
    if (pair.key.toString() !== key) copy.add(pair.key, pair.value);
  }
  return copy;
}

/** `on:` converted event by event, so one the converter rejects does not hide the others. */
function quietEvents(upstream: JsonBackedModules, onToken: TemplateToken, featureFlags: FeatureFlags): EventsConfig {
  const scratch = new TemplateContext(new TemplateValidationErrors(), upstream.schema, new NoOperationTraceWriter());
  scratch.state['featureFlags'] = featureFlags;
  if (!isMapping(onToken)) return convertQuietly(scratch, onToken) ?? {};
  const events: EventsConfig = {};
  for (const pair of onToken) {
    const single = new MappingToken(onToken.file, onToken.range, onToken.definitionInfo);
    single.add(pair.key, pair.value);
    Object.assign(events, convertQuietly(scratch, single) ?? { [pair.key.toString()]: {} });
  }
  return events;
}

function convertQuietly(scratch: TemplateContext, token: TemplateToken): EventsConfig | undefined {
  try {
    return convertOn(scratch, token);
  } catch {
    return undefined;
  }
}

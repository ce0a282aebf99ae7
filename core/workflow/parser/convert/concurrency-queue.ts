/**
 * Fix "concurrency-queue": `queue: max` lets up to 100 runs or jobs wait in a concurrency group
 * instead of one, and GitHub refuses it beside `cancel-in-progress: true` as a workflow
 * validation error ("'queue: max' cannot be combined with 'cancel-in-progress: true'.", the
 * language service's wording, at the `queue` key). The parser's schema takes `queue` (`single`
 * or `max`) but does not check the pair. Values written as expressions are checked once
 * evaluated (jobs/job-fields.ts), as GitHub also does at run time.
 */
import { isBoolean, isMapping, isString } from '@actions/workflow-parser/templates/tokens/type-guards';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/index';
import type { ParseContext } from '../parse-context.js';
import { siteOf } from './error-site.js';

export const QUEUE_WITH_CANCEL_MESSAGE = "'queue: max' cannot be combined with 'cancel-in-progress: true'.";

/** Checks one `concurrency:` value (workflow, job, or a called workflow's). */
export function validateConcurrencyQueue(context: ParseContext, concurrency: TemplateToken | undefined): void {
  if (concurrency === undefined || !isMapping(concurrency)) return;
  let queueKey: TemplateToken | undefined;
  let cancels = false;
  for (const pair of concurrency) {
    if (pair.key.isExpression || pair.value.isExpression) continue;
    const key = pair.key.toString();
    if (key === 'queue' && isString(pair.value) && pair.value.value === 'max') queueKey = pair.key;
    if (key === 'cancel-in-progress' && isBoolean(pair.value) && pair.value.value) cancels = true;
  }
  if (queueKey !== undefined && cancels) context.collector.addInDocumentOrder(siteOf(context, queueKey), QUEUE_WITH_CANCEL_MESSAGE);
}

/**
 * `github.actions.results.api.v1.WorkflowStepUpdateService/WorkflowStepsUpdate` (§4.6): in
 * run-service mode the only way a step's state reaches the server while the job runs. The runner
 * sends its `Task` records (the steps of one job per request) as they change, numbered by
 * `change_order`; they become the engine's steps exactly as legacy timeline records do
 * (worker-api `stepReportFrom`), the newest update winning in the store (steps-store.ts) and in
 * the engine. `ok` must be `true`.
 */
import type { FastifyInstance } from 'fastify';
import type { Engine, Reporting } from '../../../core/engine/index.js';
import { JOB_REPORT_BODY_LIMIT, stepReportFrom } from '../worker-api/index.js';
import { resultsJob } from './results-job.js';
import { resultsTokenOf } from './results-token.js';
import { StepsUpdateBody, type StepsUpdate } from './schemas.js';
import { stepUpdateOf } from './step-wire.js';
import type { StepsStore } from './steps-store.js';

export const STEP_UPDATE_SERVICE = 'github.actions.results.api.v1.WorkflowStepUpdateService';
export const WORKFLOW_STEPS_UPDATE_PATH = `/twirp/${STEP_UPDATE_SERVICE}/WorkflowStepsUpdate`;

/** Rounds of re-reporting a step a concurrent update moved on; the runner sends one update at a time. */
const MAX_ROUNDS = 5;

export interface StepUpdateDeps {
  readonly engine: Engine;
  readonly reporting: Reporting;
  readonly steps: StepsStore;
}

export function registerStepUpdateRoute(app: FastifyInstance, deps: StepUpdateDeps): void {
  app.post<{ Body: StepsUpdate }>(WORKFLOW_STEPS_UPDATE_PATH, { schema: { body: StepsUpdateBody }, bodyLimit: JOB_REPORT_BODY_LIMIT }, async (request) => {
    const job = await resultsJob(deps.engine, resultsTokenOf(request), request.body);
    let reported = await deps.steps.apply(job.scope, request.body.change_order, request.body.steps.map(stepUpdateOf));
    // The steps table and the engine are written in two transactions, so a concurrent (retried)
    // update may reach the engine between them. Whoever reports last therefore checks that what it
    // reported is still the newest, and reports the newer state if not: the engine ends newest.
    for (let round = 0; reported.length > 0 && round < MAX_ROUNDS; round++) {
      await deps.reporting.reportSteps(job.job.id, job.runnerId, reported.map(stepReportFrom));
      const sent = new Map(reported.map((step) => [step.externalId, step.changeOrder]));
      reported = (await deps.steps.get(job.scope, [...sent.keys()])).filter((step) => step.changeOrder > (sent.get(step.externalId) ?? 0));
    }
    return { ok: true };
  });
}

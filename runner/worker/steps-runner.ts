/**
 * The steps loop (StepsRunner.RunAsync): the message's steps in order, then the post steps the
 * actions registered, the last registered first. For each: start its record, build its `env`
 * (the job's env, then the step's `env:`; an error fails the step), note a cancellation that
 * happened before it, evaluate its name and condition (status functions read the job's status;
 * none on runner shutdown), run it or mark it skipped, record `outcome` and `conclusion`, and
 * fail the job when the step failed.
 */
import type { TaskResultName } from '../../core/protocol/index.js';
import { evaluatedDisplayName } from './display-name.js';
import { executeStep } from './step-execution.js';
import { evaluateCondition, evaluatePostCondition, evaluateStepEnvironment } from './templates/evaluate-fields.js';
import type { PlannedStep, WorkerJob } from './worker-job.js';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function runSteps(job: WorkerJob, steps: readonly PlannedStep[]): Promise<void> {
  for (const planned of steps) await runStep(job, planned);
  while (job.postSteps.length > 0) {
    const post = job.postSteps.pop();
    if (post !== undefined) await runStep(job, post);
  }
}

async function runStep(job: WorkerJob, planned: PlannedStep): Promise<void> {
  const { record, step } = planned;
  record.start();
  const scope = (env: Readonly<Record<string, string>>) => ({
    contexts: job.stepContexts(env, { action: step.name }),
    fileTable: job.message.fileTable,
    hashFiles: job.hashFiles,
  });

  const jobEnv = job.state.envObject();
  let env: Record<string, string>;
  try {
    env = { ...jobEnv, ...evaluateStepEnvironment(step.environment, scope(jobEnv)) };
  } catch (error) {
    record.error(messageOf(error));
    finish(job, planned, 'failed', 'failed');
    return;
  }

  if (job.cancellation.requested && job.state.result !== 'canceled') job.state.result = job.cancellation.shutdown ? 'failed' : 'canceled';

  let run = false;
  let conditionError: unknown;
  if (!job.cancellation.shutdown) {
    if (!planned.displayFinal) {
      const name = evaluatedDisplayName(step, scope(env), (message) => record.warning(message));
      if (name !== undefined) {
        record.rename(name);
        planned.displayFinal = true;
      }
    }
    try {
      record.debug(`Evaluating condition for step: '${record.name}'`);
      run =
        planned.stage === 'main'
          ? evaluateCondition(planned.condition, job.state.status, scope(env))
          : evaluatePostCondition(planned.condition, job.state.status, scope(env));
    } catch (error) {
      conditionError = error;
    }
  }

  if (conditionError !== undefined) {
    record.error(messageOf(conditionError));
    finish(job, planned, 'failed', 'failed');
  } else if (!run) {
    finish(job, planned, 'skipped', 'skipped');
  } else {
    const { outcome, result } = await executeStep(job, planned, env);
    finish(job, planned, outcome, result);
  }
}

function finish(job: WorkerJob, planned: PlannedStep, outcome: TaskResultName, result: TaskResultName): void {
  planned.record.complete(result);
  if (planned.stage === 'main') job.state.steps.setResult(planned.step.contextName, outcome, result);
  if (result === 'failed') job.state.merge('failed');
}

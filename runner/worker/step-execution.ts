/**
 * Running one step once its condition holds (StepsRunner.RunStepAsync and ActionRunner): the
 * step's timeout, the file-command files, the inputs, the handler, the files applied, the
 * command result merged, then `continue-on-error`. A job cancellation re-evaluates the step's
 * condition with the job cancelled and stops the step only when it no longer holds (so
 * `always()` and `cancelled()` steps finish); a runner shutdown always stops it.
 */
import type { TaskResultName } from '../../core/protocol/index.js';
import type { ExpressionContexts, ExpressionValue } from '../../core/workflow/index.js';
import { actionOriginContext, NotImplementedError, type HandlerContext, type HandlerResult } from '../handlers/index.js';
import { createStepFiles, processStepFiles } from './file-commands.js';
import type { StepLog } from '../handlers/index.js';
import { WorkerStepLog } from './step-log.js';
import {
  evaluateCondition,
  evaluateContinueOnError,
  evaluatePostCondition,
  evaluateStepInputs,
  evaluateTimeoutMinutes,
  type EvaluationScope,
} from './templates/evaluate-fields.js';
import { mergeTaskResults } from './task-result.js';
import { runtimeEnvironment } from './runtime-environment.js';
import type { PlannedStep, WorkerJob } from './worker-job.js';

export interface StepRun {
  /** Result before `continue-on-error` (the step's `outcome`). */
  readonly outcome: TaskResultName;
  /** Result after it (the step's `conclusion`, the record's result). */
  readonly result: TaskResultName;
}

function githubOf(contexts: ExpressionContexts): Readonly<Record<string, ExpressionValue>> {
  const github = contexts['github'];
  return typeof github === 'object' && github !== null && !Array.isArray(github) ? (github as Record<string, ExpressionValue>) : {};
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function executeStep(job: WorkerJob, planned: PlannedStep, env: Readonly<Record<string, string>>): Promise<StepRun> {
  const { record, step } = planned;
  const scope = (github?: Readonly<Record<string, string>>): EvaluationScope => ({
    contexts: job.stepContexts(env, { action: step.name, ...github }),
    fileTable: job.message.fileTable,
    hashFiles: job.hashFiles,
  });

  let minutes = 0;
  try {
    minutes = evaluateTimeoutMinutes(step.timeoutInMinutes, scope());
  } catch (error) {
    record.error('An error occurred when attempting to determine the step timeout.');
    record.error(messageOf(error));
  }

  const abort = new AbortController();
  let timedOut = false;
  const timer = minutes > 0 ? setTimeout(() => ((timedOut = true), abort.abort('timeout')), minutes * job.timings.minuteMs) : undefined;
  const stopWatching = job.cancellation.onCancel(() => {
    job.state.result = job.cancellation.shutdown ? 'failed' : 'canceled';
    if (job.cancellation.shutdown) {
      abort.abort('shutdown');
      return;
    }
    let holds = false;
    try {
      holds =
        planned.stage === 'main'
          ? evaluateCondition(planned.condition, 'cancelled', scope())
          : evaluatePostCondition(planned.condition, 'cancelled', scope());
    } catch (error) {
      record.error(messageOf(error));
    }
    if (!holds) abort.abort('cancel');
  });

  const files = await createStepFiles(job.directories.fileCommands);
  const github = { env: files.paths.env, output: files.paths.output, path: files.paths.path, state: files.paths.state, step_summary: files.paths.step_summary };
  const log = new WorkerStepLog({
    record,
    interpreter: job.interpreter,
    matchers: job.matchers,
    masker: job.masker,
    job: job.state,
    contextName: step.contextName,
    state: planned.state,
    workspace: job.directories.workspace,
    debug: job.debug,
  });
  job.interpreter.echo = job.debug;
  job.allowUnsecureCommandsFor(env);

  let handlerResult: HandlerResult = { outcome: 'failed' };
  try {
    handlerResult = await runHandler(job, planned, env, github, log, abort.signal, scope);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    stopWatching();
    log.close();
    const filesOk = await processStepFiles(files, {
      record,
      job: job.state,
      contextName: step.contextName,
      state: planned.state,
      attachSummary: (markdown) => job.reporter.attachStepSummary(record.id, markdown),
    });
    if (!filesOk) log.commandFailed = true;
  }

  let result: TaskResultName;
  if (abort.signal.aborted) {
    if (timedOut && !job.cancellation.requested) {
      record.error(`The action '${record.name}' has timed out after ${minutes} minutes.`);
      result = 'failed';
    } else {
      record.error('The operation was canceled.');
      result = 'canceled';
    }
  } else {
    result = handlerResult.outcome === 'succeeded' ? 'succeeded' : handlerResult.outcome;
  }
  for (const [name, value] of Object.entries(handlerResult.outputs ?? {})) job.state.steps.setOutput(step.contextName, name, value);
  if (log.commandFailed) result = mergeTaskResults(result, 'failed');

  const outcome = result;
  if (result === 'failed') {
    try {
      if (evaluateContinueOnError(step.continueOnError, scope())) result = 'succeeded';
    } catch (error) {
      record.error('The step failed and an error occurred when attempting to determine whether to continue on error.');
      record.error(messageOf(error));
    }
  }
  return { outcome, result };
}

async function runHandler(
  job: WorkerJob,
  planned: PlannedStep,
  env: Readonly<Record<string, string>>,
  github: Readonly<Record<string, string>>,
  log: StepLog,
  signal: AbortSignal,
  scope: (github?: Readonly<Record<string, string>>) => EvaluationScope,
): Promise<HandlerResult> {
  const { record, step } = planned;
  // ActionRunner sets these on the job's github context itself, before the inputs: later `env:`
  // and `if:` of the job see what the last step left, as on the runner.
  const origin = actionOriginContext(step.reference);
  job.contexts.setGithub('action_repository', origin.action_repository);
  job.contexts.setGithub('action_ref', origin.action_ref);
  try {
    if (planned.resolved instanceof Error) throw planned.resolved;
    const inputs = planned.stage !== 'post' ? evaluateStepInputs(step.inputs, scope(github)) : (planned.inputs ?? {});
    if (planned.stage === 'main') planned.inputs = inputs;
    const handler = job.registry.handlerFor(planned.resolved.using);
    const contexts = job.stepContexts(env, { action: step.name, ...github });
    const context: HandlerContext = {
      step: { id: record.id, contextName: step.contextName ?? '', name: step.name, displayName: record.name, reference: step.reference },
      stage: planned.stage,
      action: planned.resolved,
      inputs,
      environment: env,
      runtimeEnvironment: runtimeEnvironment(githubOf(contexts), job.contexts.runner, job.message),
      actionsRuntime: job.actionsRuntime,
      prependPath: job.state.prependPath(),
      defaults: job.state.defaults,
      contexts,
      state: { ...planned.state },
      directories: job.directories,
      platform: job.platform,
      ...(job.containers.stepHost === undefined ? {} : { stepHost: job.containers.stepHost }),
      log,
      signal,
      addMask: (value) => job.masker.add(value),
      registerPostStep: (request) => {
        const postRecord = job.createRecord(request.displayName, request.action.using, true);
        job.postSteps.push({ stage: 'post', record: postRecord, step, displayFinal: true, condition: request.condition, resolved: request.action, state: planned.state, inputs });
      },
    };
    return await handler.run(context);
  } catch (error) {
    if (error instanceof NotImplementedError) log.error(error.message);
    else log.error(messageOf(error));
    return { outcome: 'failed' };
  }
}

/** The contexts model: types and builders (re-exported by the templates index). */
export type {
  ContainerContext,
  EnvContext,
  GithubContext,
  InputsContext,
  JobContext,
  JobOutcomeContext,
  JobsContext,
  MatrixContext,
  NeedsContext,
  RunnerArch,
  RunnerContext,
  RunnerOs,
  SecretsContext,
  ServiceContext,
  StepConclusion,
  StepContext,
  StepsContext,
  StrategyContextData,
  StringMap,
  VarsContext,
  WorkflowContexts,
} from './context-types.js';
export { toExpressionContexts } from './context-types.js';
export { eventRef, refName, refType, type EventRef } from './event-refs.js';
export {
  buildGithubContext,
  type GithubAccount,
  type GithubContextInput,
  type GithubEventInput,
  type GithubRepositoryInput,
  type GithubServerInput,
} from './github-context.js';
export {
  buildJobContext,
  buildNeedsContext,
  buildSecretsContext,
  buildStepsContext,
  buildStrategyContext,
  stepContext,
  type JobContextInput,
  type JobOutcome,
  type StepRecord,
  type StrategyInput,
} from './job-contexts.js';
export { buildRunnerContext, runnerArch, runnerOs, type RunnerContextInput } from './runner-context.js';

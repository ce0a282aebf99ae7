/**
 * Action metadata (`action.yml` / `action.yaml`): parsing and checking it the way the runner
 * does, into a model whose expression-bearing values stay template tokens for later evaluation.
 */
export type {
  ActionInput,
  ActionManifest,
  ActionOutput,
  ActionRuns,
  CompositeRunStep,
  CompositeRuns,
  CompositeStep,
  CompositeUsesStep,
  DockerImage,
  DockerRuns,
  NodeRuns,
  NodeVersion,
} from './action-types.js';
export { dockerImage } from './docker-image.js';
export { ACTION_FILE_NAMES, parseActionManifest, type ParseActionOptions, type ParseActionResult } from './parse-action.js';
export { MAX_ID_LENGTH, StepIds } from './step-ids.js';

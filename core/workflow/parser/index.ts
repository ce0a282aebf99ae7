// core/workflow/parser: loading and validating workflow files. The public face of the folder.
//
// `loadWorkflow()` reads a workflow (and the reusable workflows it calls, through a
// WorkflowLoader) with @actions/workflow-parser, completed to behave like GitHub's own parser;
// see docs in load-workflow.ts. The JSON import hook the parser needs under plain `node` is
// registered by loadWorkflow() itself; `registerJsonImportHook` / json-hook-preload.ts are for
// code that imports @actions/workflow-parser's root module statically.

export { loadWorkflow } from './load-workflow.js';
export { formatWorkflowError } from './workflow-error.js';
export { serializeWorkflow } from './serialize/serialize-template.js';
export type { Json, SerializeOptions } from './serialize/serialize-template.js';
export { registerJsonImportHook } from './register-json-hook.js';
export { DEFAULT_LIMITS } from './options.js';
export { isReusableJob } from './model-types.js';
export { QUEUE_WITH_CANCEL_MESSAGE } from './convert/concurrency-queue.js';

export type {
  LoadedWorkflowFile,
  LoadWorkflowOptions,
  LoadWorkflowResult,
  PermissionsPolicy,
  WorkflowError,
  WorkflowFile,
  WorkflowLoader,
  WorkflowRef,
} from './types.js';
export type {
  ConvertedActionStep,
  ConvertedJob,
  ConvertedReusableWorkflowJob,
  ConvertedRunStep,
  ConvertedStep,
  ConvertedWorkflow,
  ConvertedWorkflowJob,
  JobExtras,
  StepExtras,
} from './model-types.js';
export type { PermissionLevel, Permissions } from './permissions/permissions.js';
export type { TemplateToken } from '@actions/workflow-parser/templates/tokens/index';

import type { ExperimentalFeatures } from '@actions/expressions/features';
import type { LoadWorkflowOptions, PermissionsPolicy, WorkflowLoader } from './types.js';

/** Options with GitHub's limits filled in. */
export interface LoadSettings {
  readonly loader: WorkflowLoader | undefined;
  readonly skipReusableWorkflows: boolean;
  readonly maxNestedReusableWorkflowsDepth: number;
  readonly maxFiles: number;
  readonly maxDepth: number;
  readonly maxFileSize: number;
  readonly maxResultSize: number;
  readonly maxJobLimit: number;
  readonly permissionsPolicy: PermissionsPolicy;
  readonly allowAnchors: boolean;
  readonly strictEvents: boolean;
  readonly experimentalFeatures: ExperimentalFeatures | undefined;
}

export const DEFAULT_LIMITS = {
  maxNestedReusableWorkflowsDepth: 10,
  maxFiles: 51,
  maxDepth: 50,
  maxFileSize: 1024 * 1024,
  maxResultSize: 10 * 1024 * 1024,
  maxJobLimit: 0,
} as const;

export function resolveOptions(options: LoadWorkflowOptions): LoadSettings {
  return {
    loader: options.loader,
    skipReusableWorkflows: options.skipReusableWorkflows ?? false,
    maxNestedReusableWorkflowsDepth: options.maxNestedReusableWorkflowsDepth ?? DEFAULT_LIMITS.maxNestedReusableWorkflowsDepth,
    maxFiles: options.maxFiles ?? DEFAULT_LIMITS.maxFiles,
    maxDepth: options.maxDepth ?? DEFAULT_LIMITS.maxDepth,
    maxFileSize: options.maxFileSize ?? DEFAULT_LIMITS.maxFileSize,
    maxResultSize: options.maxResultSize ?? DEFAULT_LIMITS.maxResultSize,
    maxJobLimit: options.maxJobLimit ?? DEFAULT_LIMITS.maxJobLimit,
    permissionsPolicy: options.permissionsPolicy ?? 'LimitedRead',
    allowAnchors: options.allowAnchors ?? true,
    strictEvents: options.strictEvents ?? false,
    experimentalFeatures: options.experimentalFeatures,
  };
}

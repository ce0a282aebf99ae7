/**
 * The public shapes of workflow loading: the file and loader ports, the options, the result and
 * the errors. The converted model is the parser's own `WorkflowTemplate`, completed with the
 * members GitHub's parser has and the TypeScript one leaves out (see model-types.ts).
 */
import type { ExperimentalFeatures } from '@actions/expressions/features';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';
import type { ConvertedWorkflow } from './model-types.js';

/** A workflow file: `name` is what errors and the file table call it. */
export interface WorkflowFile {
  readonly name: string;
  readonly content: string;
}

/**
 * A called workflow as the loader is asked for it.
 * - `uses: ./.github/workflows/x.yml` in the entry workflow → `{ path: '.github/workflows/x.yml' }`
 *   (the caller's repository at the run's commit; the loader knows which).
 * - `uses: owner/repo/.github/workflows/x.yml@v1` → `{ repository: 'owner/repo', path, ref: 'v1' }`.
 * - a `./` reference inside a workflow fetched from `owner/repo@v1` → that repository and ref.
 */
export interface WorkflowRef {
  readonly path: string;
  readonly repository?: string;
  readonly ref?: string;
}

/** A loaded called workflow. `trusted` lets its jobs be granted `id-token` under the Write policy. */
export interface LoadedWorkflowFile extends WorkflowFile {
  readonly trusted?: boolean;
}

/** Port: fetches called (reusable) workflows. `undefined` means "not found". */
export interface WorkflowLoader {
  read(ref: WorkflowRef): Promise<LoadedWorkflowFile | undefined>;
}

/** The token permissions a called workflow may request when its caller sets none. */
export type PermissionsPolicy = 'LimitedRead' | 'Write';

export interface LoadWorkflowOptions {
  /** Resolves `uses:` of reusable workflow jobs. Without one, those jobs stay unexpanded. */
  readonly loader?: WorkflowLoader;
  /** Do not expand reusable workflow jobs at all (their `jobs` stay empty). */
  readonly skipReusableWorkflows?: boolean;
  /** How deep reusable workflows may call each other. GitHub: 10. */
  readonly maxNestedReusableWorkflowsDepth?: number;
  /** Files a workflow may pull in, itself included. GitHub: 51 (1 + 50 references). */
  readonly maxFiles?: number;
  /** Nesting depth of YAML collections. GitHub: 50. */
  readonly maxDepth?: number;
  /** Characters per file. GitHub: 1 MiB. */
  readonly maxFileSize?: number;
  /** Estimated bytes of the parsed result, all files together. GitHub: 10 MiB. */
  readonly maxResultSize?: number;
  /** Jobs across all files; 0 = no limit (the parser's default; github.com sets its own). */
  readonly maxJobLimit?: number;
  /** Ceiling for called workflows' permissions when the caller sets none. Default LimitedRead. */
  readonly permissionsPolicy?: PermissionsPolicy;
  /** YAML anchors and aliases. github.com accepts them; the parser's own default refuses them. */
  readonly allowAnchors?: boolean;
  /**
   * Validate `on:` as strictly as the TypeScript language service does (unknown keys under
   * `workflow_dispatch`, `inputs:` without value, ...). github.com accepts those; default false.
   */
  readonly strictEvents?: boolean;
  readonly experimentalFeatures?: ExperimentalFeatures;
}

/**
 * One problem in a workflow. `message` is GitHub's wording without the location;
 * `githubMessage` is the whole text as GitHub shows it (`file (Line: 3, Col: 5): message`,
 * truncated after 500 characters like GitHub does). Position fields are 1-based and absent when
 * the problem has no place (a limit, a missing file).
 */
export interface WorkflowError {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
  readonly githubMessage: string;
}

export interface LoadWorkflowResult {
  /** The converted workflow; undefined when there are errors (GitHub discards it too). */
  readonly template: ConvertedWorkflow | undefined;
  /** The entry file's raw template-token tree (undefined when the YAML could not be read). */
  readonly tokens: TemplateToken | undefined;
  readonly errors: readonly WorkflowError[];
  /** File names by file id (token `file` is a 1-based index into this). */
  readonly fileTable: readonly string[];
}

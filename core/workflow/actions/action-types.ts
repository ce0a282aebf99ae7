/**
 * An action's metadata file (`action.yml` / `action.yaml`), as the runner loads it
 * ("Metadata syntax for GitHub Actions"). Values that may hold expressions stay template tokens
 * of `@actions/workflow-parser` (input defaults such as `${{ github.token }}`, composite
 * outputs, step fields, docker `args` and `env`): evaluate them with the templates module when
 * their contexts exist, against the action schema (`schema: 'action'`).
 */
import type { MappingToken } from '@actions/workflow-parser/templates/tokens/mapping-token';
import type { ScalarToken } from '@actions/workflow-parser/templates/tokens/scalar-token';
import type { SequenceToken } from '@actions/workflow-parser/templates/tokens/sequence-token';
import type { StringToken } from '@actions/workflow-parser/templates/tokens/string-token';
import type { TemplateToken } from '@actions/workflow-parser/templates/tokens/template-token';

export interface ActionInput {
  readonly id: string;
  readonly description?: string;
  /** `required: true` (the runner does not enforce it; actions read it through their toolkit). */
  readonly required: boolean;
  /** The default as written; may be an expression (`${{ github.token }}`). */
  readonly default?: TemplateToken;
  /** Set when the input is deprecated: shown as a warning when a workflow sets the input. */
  readonly deprecationMessage?: string;
}

export interface ActionOutput {
  readonly id: string;
  readonly description?: string;
  /** Composite actions only: the expression that gives the output's value. */
  readonly value?: TemplateToken;
}

/** The JavaScript runtimes an action may declare. */
export type NodeVersion = 'node12' | 'node16' | 'node20' | 'node24';

export interface NodeRuns {
  readonly using: NodeVersion;
  /**
   * The runtime the runner starts: node12 and node16 actions run on node20 (the runner maps
   * them, its comment: both are end of life), node20 and node24 as declared.
   */
  readonly runtime: 'node20' | 'node24';
  readonly main: string;
  readonly pre?: string;
  /** Default `always()`. Evaluated as written: no implicit `success() &&`. */
  readonly preIf: string;
  readonly post?: string;
  /** Default `always()`. */
  readonly postIf: string;
}

/** `image: docker://alpine:3` is pulled; `image: Dockerfile` (or `path/Dockerfile`, `Dockerfile.x`) is built. */
export type DockerImage =
  | { readonly kind: 'registry'; readonly image: string }
  | { readonly kind: 'dockerfile'; readonly path: string };

export interface DockerRuns {
  readonly using: 'docker';
  /** As written. */
  readonly image: string;
  readonly source: DockerImage;
  readonly entrypoint?: string;
  readonly preEntrypoint?: string;
  readonly postEntrypoint?: string;
  readonly preIf: string;
  readonly postIf: string;
  /** Items may hold expressions over `inputs`. */
  readonly args?: SequenceToken;
  /** Values may hold expressions over `inputs`. */
  readonly env?: MappingToken;
}

interface CompositeStepBase {
  /** The explicit id, or the generated one (`__run`, `__actions_checkout`, `__run_2`, ...). */
  readonly id: string;
  readonly generatedId: boolean;
  readonly name?: ScalarToken;
  /** The condition to evaluate: `success()` when absent, `success() && (...)` without a status function. */
  readonly condition: string;
  /** The `if:` token as written, for error locations. */
  readonly if?: ScalarToken;
  readonly continueOnError?: ScalarToken;
  readonly env?: TemplateToken;
}

export interface CompositeRunStep extends CompositeStepBase {
  readonly kind: 'run';
  readonly run: ScalarToken;
  /** Required in composite actions. */
  readonly shell: ScalarToken;
  readonly workingDirectory?: ScalarToken;
}

export interface CompositeUsesStep extends CompositeStepBase {
  readonly kind: 'uses';
  readonly uses: StringToken;
  readonly with?: TemplateToken;
}

export type CompositeStep = CompositeRunStep | CompositeUsesStep;

export interface CompositeRuns {
  readonly using: 'composite';
  readonly steps: readonly CompositeStep[];
}

export type ActionRuns = NodeRuns | DockerRuns | CompositeRuns;

export interface ActionManifest {
  readonly name: string;
  readonly description?: string;
  readonly author?: string;
  readonly inputs: readonly ActionInput[];
  readonly outputs: readonly ActionOutput[];
  readonly runs: ActionRuns;
}

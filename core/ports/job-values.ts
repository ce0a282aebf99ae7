import { createServiceRef } from '../kernel/index.js';

/**
 * What runs and jobs read from the secrets plugin (`secrets`, `vars`): provided by `secrets`,
 * taken with `optional(...)` by the plugins that create runs and build job messages, so they
 * still work (with no secrets and no variables) when that plugin is not enabled.
 */

/** Values a submission brings for its run only (`svc run --secret/--var`), name → value. */
export interface SuppliedValues {
  readonly secrets: Readonly<Record<string, string>>;
  readonly vars: Readonly<Record<string, string>>;
}

/** What a run sees when it is created: no environment applies yet. */
export interface RunValues {
  /** Secrets the run's workflows can name (global, the repository's, and run-supplied), sorted. */
  readonly secretNames: readonly string[];
  /** The `vars` context for planning: global < repository < run-supplied. */
  readonly vars: Readonly<Record<string, string>>;
}

/** What one job sees: run-supplied > environment > repository > global. */
export interface JobValuesOf {
  readonly secrets: Readonly<Record<string, string>>;
  readonly vars: Readonly<Record<string, string>>;
}

export interface JobValues {
  forRun(repository: string, supplied?: SuppliedValues): Promise<RunValues>;
  /** `environment`: the job's `environment:` name, when it has one. */
  forJob(target: { readonly repository: string; readonly environment?: string }, supplied?: SuppliedValues): Promise<JobValuesOf>;
  /**
   * Seals text under the secrets key (AES-256-GCM); `label` is bound to it, so it opens only
   * with the same label. For values that rest in the store for a while (run-supplied values,
   * the secrets of a job message waiting for its runner).
   */
  seal(label: string, text: string): Promise<string>;
  /** Throws when the text was not sealed under this label and key. */
  open(label: string, sealed: string): Promise<string>;
}

export const jobValuesServiceRef = createServiceRef<JobValues>({ id: 'secrets.jobValues' });

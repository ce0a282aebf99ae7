/**
 * What the steps of a job share (the runner's GlobalContext): the job's result so far, the
 * environment from the job's `env:` and `$GITHUB_ENV`, the `$GITHUB_PATH` entries,
 * `defaults.run`, and the `steps` context (outputs, outcome, conclusion of each step with an id
 * of its own; generated ids starting with `__` stay out of it, as on the runner).
 */
import type { TaskResultName } from '../../core/protocol/index.js';
import type { ExpressionValue, JobStatus } from '../../core/workflow/index.js';
import { actionResult, jobStatusOf, mergeTaskResults } from './task-result.js';

interface StepEntry {
  outputs: Record<string, string>;
  outcome?: string;
  conclusion?: string;
}

export function isGeneratedContextName(name: string | undefined): boolean {
  return name === undefined || name === '' || name.startsWith('__');
}

export class StepsContext {
  readonly #steps = new Map<string, StepEntry>();

  #entry(contextName: string): StepEntry {
    let entry = this.#steps.get(contextName);
    if (entry === undefined) {
      entry = { outputs: {} };
      this.#steps.set(contextName, entry);
    }
    return entry;
  }

  setOutput(contextName: string | undefined, name: string, value: string): void {
    if (contextName === undefined || isGeneratedContextName(contextName)) return;
    this.#entry(contextName).outputs[name] = value;
  }

  setResult(contextName: string | undefined, outcome: TaskResultName, conclusion: TaskResultName): void {
    if (contextName === undefined || isGeneratedContextName(contextName)) return;
    const entry = this.#entry(contextName);
    entry.outcome = actionResult(outcome);
    entry.conclusion = actionResult(conclusion);
  }

  outputsOf(contextName: string): Readonly<Record<string, string>> {
    return this.#steps.get(contextName)?.outputs ?? {};
  }

  toContext(): ExpressionValue {
    const result: Record<string, ExpressionValue> = {};
    for (const [name, entry] of this.#steps) {
      result[name] = {
        outputs: { ...entry.outputs },
        ...(entry.outcome === undefined ? {} : { outcome: entry.outcome }),
        ...(entry.conclusion === undefined ? {} : { conclusion: entry.conclusion }),
      };
    }
    return result;
  }
}

export class JobState {
  /** The job's result so far; undefined until something decides it (then `succeeded` at the end). */
  result: TaskResultName | undefined;
  /** Workflow and job `env:` evaluated at setup, then `$GITHUB_ENV` (and `::set-env`) of each step. */
  readonly env = new Map<string, string>();
  /** `$GITHUB_PATH` entries in the order added (the newest goes first on `PATH`). */
  readonly path: string[] = [];
  defaults: { shell?: string; workingDirectory?: string } = {};
  readonly steps = new StepsContext();

  get status(): JobStatus {
    return jobStatusOf(this.result);
  }

  merge(result: TaskResultName): void {
    this.result = mergeTaskResults(this.result, result);
  }

  envObject(): Record<string, string> {
    return Object.fromEntries(this.env);
  }

  addPath(entry: string): void {
    if (entry === '') return;
    const index = this.path.indexOf(entry);
    if (index >= 0) this.path.splice(index, 1);
    this.path.push(entry);
  }

  /** `$GITHUB_PATH` entries newest first, as they go in front of `PATH`. */
  prependPath(): string[] {
    return [...this.path].reverse();
  }
}

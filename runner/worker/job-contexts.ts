/**
 * The expression contexts of a job (RUNNER-PROTOCOL.md §3.5), as the runner assembles them: the
 * message's `contextData` (`github`, `needs`, `strategy`, `matrix`, `inputs`, `vars`, `job`,
 * ...) plus what the runner fills in: `github.token` and `github.job` from the variables,
 * `github.workspace`, `github.event_path`, per step `github.action` and the file-command paths;
 * `secrets` from the secret variables (but `system.github.token` and `system.accessToken`);
 * `runner`; `job.status`; and per step `env` and `steps`.
 */
import { fromContextData, type JsonValue } from '../../core/protocol/index.js';
import type { ExpressionContexts, ExpressionValue, JobStatus } from '../../core/workflow/index.js';
import type { JobMessage } from './job-message/index.js';
import { variable } from './job-message/index.js';

type Plain = Record<string, ExpressionValue>;

function plain(value: JsonValue): ExpressionValue {
  return value as ExpressionValue;
}

function asObject(value: ExpressionValue | undefined): Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Plain) } : {};
}

/** Looks a key up ignoring case (dictionaries of the runner do). */
export function memberOf(object: Readonly<Plain>, key: string): ExpressionValue | undefined {
  if (Object.hasOwn(object, key)) return object[key];
  const lower = key.toLowerCase();
  for (const [name, value] of Object.entries(object)) if (name.toLowerCase() === lower) return value;
  return undefined;
}

export interface RunnerInfo {
  readonly name: string;
  readonly os: string;
  readonly arch: string;
  readonly environment: string;
  readonly temp: string;
  readonly toolCache: string;
  readonly workspace: string;
  readonly debug: boolean;
}

export interface StepContextInput {
  readonly env: Readonly<Record<string, string>>;
  readonly steps: ExpressionValue;
  readonly jobStatus: JobStatus;
  /** Per-step members of `github` (`action`, `env`, `output`, `path`, `state`, `step_summary`, ...). */
  readonly github?: Readonly<Record<string, string>>;
}

export class JobContexts {
  readonly #base: Plain;
  #github: Plain;
  #runner: Plain;
  readonly #job: Plain;

  constructor(message: JobMessage) {
    const base: Plain = {};
    for (const [name, data] of message.contextData) base[name] = plain(fromContextData(data));
    const github = asObject(memberOf(base, 'github'));
    const token = variable(message, 'system.github.token')?.value ?? '';
    const job = variable(message, 'system.github.job')?.value;
    this.#github = { token, ...(job === undefined || job === '' ? {} : { job }), ...github };
    this.#job = asObject(memberOf(base, 'job'));
    const secrets: Plain = {};
    for (const [name, entry] of message.variables) {
      const lower = name.toLowerCase();
      if (entry.isSecret && lower !== 'system.github.token' && lower !== 'system.accesstoken') secrets[name] = entry.value;
    }
    for (const key of Object.keys(base)) if (['github', 'job', 'secrets', 'runner', 'env', 'steps'].includes(key.toLowerCase())) delete base[key];
    this.#base = { ...base, secrets };
    this.#runner = {};
  }

  /** The `github` context as it stands (without per-step members). */
  get github(): Readonly<Plain> {
    return this.#github;
  }

  get runner(): Readonly<Plain> {
    return this.#runner;
  }

  /** A context other than the runner-built ones (`vars`, `inputs`, `matrix`, ...). */
  context(name: string): ExpressionValue | undefined {
    return memberOf(this.#base, name);
  }

  /** A member of the `job` context the runner fills (`container`, `services`). */
  setJob(name: string, value: ExpressionValue): void {
    this.#job[name] = value;
  }

  setGithub(name: string, value: string): void {
    this.#github = { ...this.#github, [name]: value };
  }

  setRunner(info: RunnerInfo): void {
    this.#runner = {
      ...(info.debug ? { debug: '1' } : {}),
      os: info.os,
      arch: info.arch,
      name: info.name,
      environment: info.environment,
      tool_cache: info.toolCache,
      temp: info.temp,
      workspace: info.workspace,
    };
  }

  /** The contexts an evaluation of the job (setup, job env, outputs) sees. */
  forJob(input: Omit<StepContextInput, 'github'>): ExpressionContexts {
    return this.forStep(input);
  }

  /** The contexts of one step: `env` and `steps` as given, `job.status`, per-step `github` members. */
  forStep(input: StepContextInput): ExpressionContexts {
    return {
      ...this.#base,
      github: input.github === undefined ? this.#github : { ...this.#github, ...input.github },
      runner: this.#runner,
      job: { ...this.#job, status: input.jobStatus },
      env: { ...input.env },
      steps: input.steps,
    };
  }
}

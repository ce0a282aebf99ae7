/**
 * The run-level values a plan starts from: the event as the plan is given it, the `github`
 * context built from it, the `inputs` context (a `workflow_dispatch` event's inputs resolved
 * against `on.workflow_dispatch.inputs`; `{}` for other events), and whether the event triggers
 * the workflow at all (`on:` with its filters, triggers/).
 */
import { isMapping } from '@actions/workflow-parser/templates/tokens/type-guards';
import type { TemplateToken } from '../parser/index.js';
import {
  buildGithubContext,
  tokenToValue,
  type GithubAccount,
  type GithubContext,
  type GithubRepositoryInput,
  type GithubServerInput,
  type InputsContext,
} from '../templates/index.js';
import {
  matchTrigger,
  resolveDispatchInputs,
  type JsonObject,
  type JsonValue,
  type OnSection,
  type TriggerEvent,
  type UnexpectedInputs,
} from '../triggers/index.js';
import type { TriggerCheck } from './types.js';

/** The event a plan is for. Fields left out come from the payload where GitHub's events carry them. */
export interface PlanEvent {
  /** `push`, `pull_request`, `workflow_dispatch`, ... */
  readonly name: string;
  /** The webhook payload (`github.event`); default `{}`. */
  readonly payload?: JsonObject;
  /** The run's ref; default what the event implies (the pushed ref, the PR's merge ref, ...). */
  readonly ref?: string;
  /** The run's commit; required when the payload does not carry it. */
  readonly sha?: string;
  /** Default: the payload's `repository`. */
  readonly repository?: GithubRepositoryInput;
  /** Default: the payload's `sender`. */
  readonly actor?: GithubAccount;
  /** Paths the event changed; omitted: `paths` filters are not applied (GitHub's rule when unknown). */
  readonly changedFiles?: readonly string[];
}

export interface PlanOptions {
  readonly event: PlanEvent;
  /** The workflow file's path in the repository; default the loaded file's name. */
  readonly workflowPath?: string;
  readonly vars?: Readonly<Record<string, string>>;
  /** Names of the secrets the run can read (values never reach the plan). */
  readonly secretNames?: readonly string[];
  /** `workflow_dispatch` inputs as given; default the payload's `inputs`. */
  readonly inputs?: JsonObject;
  /**
   * Given `workflow_dispatch` inputs the workflow does not declare: `keep` (default; the spec's
   * forge-shaped dispatch keeps them in the event payload) or `refuse` (GitHub's dispatch API:
   * an input error naming them).
   */
  readonly unexpectedInputs?: UnexpectedInputs;
  /** The run's id, number and attempt; default 0, 0, 1 (a plan has no run yet). */
  readonly run?: { readonly id: string | number; readonly number: number; readonly attempt: number };
  readonly server?: GithubServerInput;
  /** Jobs a run may hold; default MAX_RUN_JOBS. */
  readonly maxJobs?: number;
}

export interface RunContexts {
  readonly github: GithubContext;
  readonly inputs: InputsContext;
  readonly trigger: TriggerCheck;
  /** What the dispatch brought that the workflow refuses (the request's fault, not the file's). */
  readonly inputErrors: readonly string[];
}

/** The root mapping's value at `key`. */
export function rootValue(root: TemplateToken | undefined, key: string): TemplateToken | undefined {
  return root !== undefined && isMapping(root) ? root.find(key) : undefined;
}

export function runContexts(root: TemplateToken | undefined, path: string, options: PlanOptions): RunContexts {
  const { event } = options;
  const inputErrors: string[] = [];
  const on = plainOn(root);
  let payload: JsonObject = event.payload ?? {};
  let inputs: InputsContext = {};
  if (event.name === 'workflow_dispatch') {
    const declared = member(member(on, 'workflow_dispatch'), 'inputs');
    const given = options.inputs ?? member(payload, 'inputs');
    const resolution = resolveDispatchInputs(declared, given, options.unexpectedInputs === undefined ? {} : { unexpected: options.unexpectedInputs });
    if (resolution.ok) {
      inputs = resolution.inputs;
      payload = { ...payload, inputs: resolution.payload };
    } else {
      inputErrors.push(...resolution.errors.map((issue) => issue.message));
    }
  }
  const nameToken = rootValue(root, 'name');
  const github = buildGithubContext({
    event: { name: event.name, payload },
    ...(event.ref === undefined ? {} : { ref: event.ref }),
    ...(event.sha === undefined ? {} : { sha: event.sha }),
    ...(event.repository === undefined ? {} : { repository: event.repository }),
    ...(event.actor === undefined ? {} : { actor: event.actor }),
    run: options.run ?? { id: 0, number: 0, attempt: 1 },
    workflow: { path, ...(nameToken === undefined ? {} : { name: nameToken.toString() }) },
    ...(options.server === undefined ? {} : { server: options.server }),
  });
  return { github, inputs, trigger: triggerCheck(on, triggerEvent(event, payload, github)), inputErrors };
}

function plainOn(root: TemplateToken | undefined): JsonValue | undefined {
  const token = rootValue(root, 'on');
  if (token === undefined) return undefined;
  try {
    return tokenToValue(token) as JsonValue;
  } catch {
    return undefined;
  }
}

/** What the trigger filters read, from the event and its payload (GitHub's webhook fields). */
function triggerEvent(event: PlanEvent, payload: JsonObject, github: GithubContext): TriggerEvent {
  const run = member(payload, 'workflow_run');
  return {
    name: event.name,
    ...optional('action', member(payload, 'action')),
    ...(event.name === 'push' ? { ref: github.ref } : {}),
    ...optional('baseRef', member(member(member(payload, 'pull_request'), 'base'), 'ref')),
    ...(event.changedFiles === undefined ? {} : { changedFiles: event.changedFiles }),
    ...optional('workflowName', member(run, 'name')),
    ...optional('headBranch', member(run, 'head_branch')),
    ...optional('cron', member(payload, 'schedule')),
  };
}

/** `{ [key]: value }` for a string value, `{}` otherwise. */
function optional<K extends keyof TriggerEvent>(key: K, value: JsonValue | undefined): Partial<Record<K, string>> {
  return typeof value === 'string' ? ({ [key]: value } as Partial<Record<K, string>>) : {};
}

function triggerCheck(on: JsonValue | undefined, event: TriggerEvent): TriggerCheck {
  try {
    return matchTrigger(on as OnSection | undefined, event);
  } catch (error) {
    // matchTrigger throws a TypeError when the event lacks what a filter reads (a pull request
    // without its base branch, as a local run without --payload has).
    if (error instanceof TypeError) return { status: 'undetermined', reason: error.message };
    throw error;
  }
}

function member(value: JsonValue | undefined, key: string): JsonValue | undefined {
  if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return (value as JsonObject)[key];
}

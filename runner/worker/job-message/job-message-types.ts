/**
 * The job message (`AgentJobRequestMessage`, RUNNER-PROTOCOL.md §3) as the worker models it:
 * every member the runner reads, TemplateTokens and PipelineContextData decoded with
 * core/protocol's codecs, nothing dropped (members this model does not know are kept in `extra`
 * and named in `unknownMembers`).
 */
import type { JsonValue, PipelineContextData, TemplateToken } from '../../../core/protocol/index.js';
import type { ActionReference } from '../../handlers/index.js';

/** Legacy VSS routes (`PipelineAgentJobRequest`) or results + run service (`RunnerJobRequest`). */
export type JobMode = 'legacy' | 'run-service';

export interface EndpointAuthorization {
  readonly scheme: string;
  readonly parameters: Readonly<Record<string, string>>;
}

export interface ServiceEndpoint {
  readonly id?: string;
  readonly name: string;
  readonly type?: string;
  readonly owner?: string;
  readonly url: string;
  readonly description?: string;
  readonly authorization: EndpointAuthorization | null;
  readonly groupScopeId?: string;
  readonly isShared?: boolean;
  readonly isReady?: boolean;
  readonly operationStatus?: JsonValue;
  /** `CacheServerUrl`, `ResultsServiceUrl`, `GenerateIdTokenUrl`, `FeedStreamUrl`, ... */
  readonly data: Readonly<Record<string, string>>;
}

export interface JobVariable {
  readonly value: string;
  readonly isSecret: boolean;
}

export interface MaskHint {
  /** `regex` (the value is a pattern, also masked literally) or `variable` (ignored by the runner). */
  readonly type: string;
  readonly value: string;
}

/** Members of both step kinds (the runner's JobStep). */
export interface StepBase {
  /** The timeline record id of the step. */
  readonly id: string;
  readonly name: string;
  readonly displayName?: string;
  readonly displayNameToken?: TemplateToken;
  readonly contextName?: string;
  /** Always a full condition from GitHub (`success()`, `success() && (...)`); '' means `success()`. */
  readonly condition: string;
  readonly continueOnError?: TemplateToken;
  readonly timeoutInMinutes?: TemplateToken;
  readonly enabled?: boolean;
  readonly parallelGroupId?: string;
  /** Members this model does not know, by name as sent. */
  readonly extra: Readonly<Record<string, JsonValue>>;
}

export interface ActionStep extends StepBase {
  readonly kind: 'action';
  readonly reference: ActionReference;
  /** `with:` for actions; `script`, `shell`, `workingDirectory` for `run:`. */
  readonly inputs?: TemplateToken;
  /** The step's `env:`. */
  readonly environment?: TemplateToken;
  readonly background?: boolean;
}

/** 2.335+ `wait`, `wait-all`, `cancel` of background steps. */
export interface BackgroundControlStep extends StepBase {
  readonly kind: 'backgroundStepControl';
  readonly controlType: string;
  readonly stepIds: readonly string[];
}

export type JobStep = ActionStep | BackgroundControlStep;

export interface JobPlan {
  readonly scopeIdentifier: string;
  readonly planType: string;
  readonly planId: string;
  readonly version: number;
  readonly planGroup?: string;
  readonly artifactUri?: string;
  readonly artifactLocation?: string;
  readonly definition?: JsonValue;
  readonly owner?: JsonValue;
}

export interface JobTimeline {
  readonly id: string;
  readonly changeId: number;
  readonly location: JsonValue;
}

export interface ActionsEnvironment {
  readonly name: string;
  /** Evaluated at job end. */
  readonly url?: TemplateToken;
}

export interface JobMessage {
  readonly messageType: string;
  readonly mode: JobMode;
  readonly plan: JobPlan;
  readonly timeline: JobTimeline;
  readonly jobId: string;
  readonly jobDisplayName: string;
  readonly jobName: string;
  readonly requestId: number;
  readonly lockedUntil?: string;
  readonly endpoints: readonly ServiceEndpoint[];
  /** The endpoint named `SystemVssConnection`. */
  readonly systemConnection: ServiceEndpoint;
  /** `resources.containers` and `resources.repositories` (old server-side forms), as sent. */
  readonly resourceContainers: readonly JsonValue[];
  readonly resourceRepositories: readonly JsonValue[];
  /** Variables by name as sent (look them up with `variable()`, which ignores case as the runner does). */
  readonly variables: ReadonlyMap<string, JobVariable>;
  readonly mask: readonly MaskHint[];
  /** Steps in order; a step of a type the runner does not know is left out, as the runner leaves it null. */
  readonly steps: readonly JobStep[];
  /** `contextData` in order (github, needs, strategy, matrix, inputs, vars, job, ...). */
  readonly contextData: ReadonlyMap<string, PipelineContextData | null>;
  readonly fileTable: readonly string[];
  readonly environmentVariables: readonly TemplateToken[];
  readonly defaults: readonly TemplateToken[];
  readonly jobOutputs?: TemplateToken;
  readonly jobContainer?: TemplateToken;
  readonly jobServiceContainers?: TemplateToken;
  readonly jobSidecarContainers?: Readonly<Record<string, string>>;
  readonly workspace?: { readonly clean?: string };
  readonly actionsEnvironment?: ActionsEnvironment;
  readonly snapshot?: TemplateToken;
  readonly billingOwnerId?: string;
  readonly dependencies?: readonly string[];
  readonly enableDebugger?: boolean;
  readonly debuggerTunnel?: JsonValue;
  readonly debuggerWelcomeMessage?: string;
  /** Top-level members this model does not know, by name as sent. */
  readonly extra: Readonly<Record<string, JsonValue>>;
}

/** A variable's value, names compared ignoring case (the runner's Variables). */
export function variable(message: Pick<JobMessage, 'variables'>, name: string): JobVariable | undefined {
  const exact = message.variables.get(name);
  if (exact !== undefined) return exact;
  const lower = name.toLowerCase();
  for (const [key, value] of message.variables) if (key.toLowerCase() === lower) return value;
  return undefined;
}

/** A variable read as the runner's `GetBoolean`: `true`/`false` ignoring case; anything else is undefined. */
export function variableFlag(message: Pick<JobMessage, 'variables'>, name: string): boolean | undefined {
  const value = variable(message, name)?.value.trim().toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

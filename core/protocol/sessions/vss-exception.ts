// The error body of the legacy `_apis/…` endpoints: a WrappedException (actions/runner
// src/Sdk/WebApi/WebApi/WrappedException.cs). On a non-2xx JSON answer the runner's VSS client
// (VssHttpClientBase.HandleResponseAsync → UnwrapExceptionAsync) rebuilds a typed exception from
// `typeName` (TaskAgentHttpClient has no `typeKey` table, so `typeKey` is informational), and
// only a VssException subclass survives: anything else is replaced by a generic
// VssServiceResponseException, which the Listener treats as "retry". Never send a 401 (the
// handler takes it as "get a new token") or 407.
//
// WrappedException.LoadType resolves `typeName` in this order:
//  1. Type.GetType(typeName, ignoreCase): works for `<Namespace>.<Class>, Sdk`, the runner's SDK
//     assembly (src/Sdk/Sdk.csproj sets no AssemblyName);
//  2. the ExceptionMapping attributes of the loaded SDK (src/Sdk/DTWebApi/WebApi/Exceptions.cs),
//     keyed by their exact typeName string `GitHub.DistributedTask.WebApi.<Class>,
//     GitHub.DistributedTask.WebApi, Version=14.0.0.0, Culture=neutral, PublicKeyToken=…`.
// We send the attribute string where a class has its own (what GitHub-side SDKs emit for old API
// versions and what RUNNER-PROTOCOL.md §0.4 shows), and the `, Sdk` form where it has none or
// shares its string with another class (TaskOrchestrationPlanNotFoundException's string is also on
// InvalidLicenseHubException; which one the cache keeps depends on type enumeration order).

const MAPPING_SUFFIX = ', GitHub.DistributedTask.WebApi, Version=14.0.0.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a';
const NAMESPACE = 'GitHub.DistributedTask.WebApi';

/** How the runner finds the class: its ExceptionMapping attribute, or loading the type from its Sdk assembly. */
export type VssTypeResolution = 'mapping' | 'sdk-type';

export interface VssExceptionInfo {
  readonly resolution: VssTypeResolution;
  /** The HTTP status we send it with (the runner only needs non-2xx, not 401/407). */
  readonly status: number;
  /** What the runner does on receiving it (RUNNER-PROTOCOL.md §2.9). */
  readonly effect: string;
}

const TABLE = {
  AccessDeniedException: { resolution: 'mapping', status: 403, effect: 'session create/poll: fatal; with errorCode 1 on a poll: "runner version deprecated" exit' },
  TaskAgentNotFoundException: { resolution: 'mapping', status: 404, effect: 'session create: fatal; poll (2.336+): local config deleted, exit' },
  TaskAgentPoolNotFoundException: { resolution: 'mapping', status: 404, effect: 'session create/poll: fatal' },
  TaskAgentSessionConflictException: { resolution: 'mapping', status: 409, effect: 'session create: retried every 30 s for 4 minutes, then exit code 5' },
  TaskAgentSessionExpiredException: { resolution: 'mapping', status: 404, effect: 'poll: new session, continue' },
  TaskAgentJobNotFoundException: { resolution: 'mapping', status: 404, effect: 'job request renew/finish: stop (job abandoned)' },
  TaskAgentJobTokenExpiredException: { resolution: 'mapping', status: 403, effect: 'job request renew/finish: stop (job abandoned)' },
  TaskAgentExistsException: { resolution: 'mapping', status: 409, effect: 'agent create: configuration fails' },
  TaskAgentVersionNotSupportedException: { resolution: 'mapping', status: 400, effect: 'generic failure with this message' },
  TaskOrchestrationJobNotFoundException: { resolution: 'mapping', status: 404, effect: 'run service: the runner raises it itself from a runServiceError 404; listed for completeness' },
  TaskOrchestrationJobAlreadyAcquiredException: { resolution: 'mapping', status: 409, effect: 'run service: raised by the runner from a runServiceError 409' },
  TaskOrchestrationJobUnprocessableException: { resolution: 'mapping', status: 422, effect: 'run service: raised by the runner from a runServiceError 422' },
  TaskOrchestrationPlanNotFoundException: { resolution: 'sdk-type', status: 404, effect: 'JobCompleted event: job failed, no retry' },
  TaskOrchestrationPlanSecurityException: { resolution: 'mapping', status: 403, effect: 'JobCompleted event: job failed, no retry' },
  TaskOrchestrationPlanTerminatedException: { resolution: 'mapping', status: 409, effect: 'JobCompleted event: job failed, no retry' },
  TimelineNotFoundException: { resolution: 'mapping', status: 404, effect: 'timeline calls: generic failure' },
  TimelineRecordNotFoundException: { resolution: 'mapping', status: 404, effect: 'timeline calls: generic failure' },
  TimelineExistsException: { resolution: 'sdk-type', status: 409, effect: 'timeline create: ignored (the server already has it)' },
  TaskAgentAccessTokenExpiredException: { resolution: 'sdk-type', status: 403, effect: 'session create/poll: token revoked, listener stops without deleting the session' },
  InvalidTaskAgentVersionException: { resolution: 'sdk-type', status: 400, effect: 'generic failure with this message' },
  DistributedTaskException: { resolution: 'mapping', status: 400, effect: 'generic failure with this message (retried where retries apply)' },
} as const satisfies Readonly<Record<string, VssExceptionInfo>>;

export type VssExceptionTypeKey = keyof typeof TABLE;

/** The exceptions the runner acts on, by class name (= `typeKey`). */
export const VSS_EXCEPTIONS: Readonly<Record<VssExceptionTypeKey, VssExceptionInfo>> = TABLE;

/** The WrappedException JSON (camelCase, `$id` from the DTO's IsReference contract). */
export interface VssWrappedException {
  readonly $id: string;
  readonly innerException: null;
  readonly message: string;
  readonly typeName: string;
  readonly typeKey: string;
  /** Read back into the exception's ErrorCode (AccessDeniedException + 1 = version deprecated). */
  readonly errorCode: number;
  readonly eventId: number;
}

export interface VssExceptionOptions {
  readonly errorCode?: number;
  /** Defaults to VssException.DefaultExceptionEventId (3000). */
  readonly eventId?: number;
}

/** The exact `typeName` the runner resolves to this exception class. */
export function vssTypeName(typeKey: VssExceptionTypeKey): string {
  return VSS_EXCEPTIONS[typeKey].resolution === 'mapping' ? `${NAMESPACE}.${typeKey}${MAPPING_SUFFIX}` : `${NAMESPACE}.${typeKey}, Sdk`;
}

/** The body to answer a legacy `_apis` call with; send it as JSON with `VSS_EXCEPTIONS[typeKey].status`. */
export function vssException(typeKey: VssExceptionTypeKey, message: string, options: VssExceptionOptions = {}): VssWrappedException {
  return {
    $id: '1',
    innerException: null,
    message,
    typeName: vssTypeName(typeKey),
    typeKey,
    errorCode: options.errorCode ?? 0,
    eventId: options.eventId ?? 3000,
  };
}

export const vssExceptionSchema = {
  type: 'object',
  required: ['message', 'typeName', 'typeKey', 'errorCode', 'eventId'],
  properties: {
    $id: { type: 'string' },
    innerException: { type: ['object', 'null'] },
    message: { type: 'string' },
    typeName: { type: 'string', minLength: 1 },
    typeKey: { type: 'string', minLength: 1 },
    errorCode: { type: 'integer' },
    eventId: { type: 'integer' },
  },
} as const;

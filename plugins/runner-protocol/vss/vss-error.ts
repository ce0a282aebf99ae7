import { SvcError } from '../../../core/kernel/index.js';

/**
 * The exception types the runner's SDK maps from a wrapped-exception body, by `typeKey`, with the
 * assembly each lives in (actions/runner src/Sdk: DTWebApi/WebApi/Exceptions.cs and
 * Common/Common/Exceptions/*.cs, `ExceptionMapping` attributes). Only these change the runner's
 * behaviour; anything else becomes a generic failure.
 */
const VSS_EXCEPTION_ASSEMBLIES = {
  TaskAgentExistsException: 'GitHub.DistributedTask.WebApi',
  TaskAgentNotFoundException: 'GitHub.DistributedTask.WebApi',
  TaskAgentPoolNotFoundException: 'GitHub.DistributedTask.WebApi',
  TaskAgentSessionConflictException: 'GitHub.DistributedTask.WebApi',
  TaskAgentSessionExpiredException: 'GitHub.DistributedTask.WebApi',
  TaskAgentJobNotFoundException: 'GitHub.DistributedTask.WebApi',
  TaskAgentJobTokenExpiredException: 'GitHub.DistributedTask.WebApi',
  TaskAgentVersionNotSupportedException: 'GitHub.DistributedTask.WebApi',
  AccessDeniedException: 'GitHub.DistributedTask.WebApi',
  VssServiceException: 'GitHub.Services.Common',
  VssUnauthorizedException: 'GitHub.Services.Common',
} as const;

export type VssExceptionKey = keyof typeof VSS_EXCEPTION_ASSEMBLIES;

/** The assembly-qualified name the runner's exception mapping is keyed on (§0.4). */
export function vssTypeName(typeKey: VssExceptionKey): string {
  const assembly = VSS_EXCEPTION_ASSEMBLIES[typeKey];
  return `${assembly}.${typeKey}, ${assembly}, Version=14.0.0.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a`;
}

/** The "wrapped exception" body of a failed VSS call. */
export interface VssErrorBody {
  readonly $id: '1';
  readonly innerException: null;
  readonly message: string;
  readonly typeName: string;
  readonly typeKey: VssExceptionKey;
  readonly errorCode: number;
  readonly eventId: number;
}

export function vssErrorBody(typeKey: VssExceptionKey, message: string, errorCode = 0): VssErrorBody {
  return { $id: '1', innerException: null, message, typeName: vssTypeName(typeKey), typeKey, errorCode, eventId: 3000 };
}

/**
 * An error a VSS route answers with a typed wrapped exception. Outside a VSS route group it still
 * maps like any SvcError (status and message).
 */
export class VssError extends SvcError {
  readonly typeKey: VssExceptionKey;
  readonly errorCode: number;

  constructor(status: number, typeKey: VssExceptionKey, message: string, options: { readonly errorCode?: number; readonly code?: string } = {}) {
    super(message, status, options.code ?? 'runner_protocol_error');
    this.typeKey = typeKey;
    this.errorCode = options.errorCode ?? 0;
  }
}

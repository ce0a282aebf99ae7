/**
 * Finds the TemplateToken and PipelineContextData values inside a job message
 * (AgentJobRequestMessage), by the field list of actions/runner's job message and step types
 * (RUNNER-PROTOCOL.md §3.1, §3.4). Any field it does not know is reported, so a capture with a
 * new field makes the suite fail instead of silently skipping it.
 */
export interface WireBlob {
  readonly kind: 'token' | 'context';
  /** Where it sits in the message, e.g. `steps[3].inputs`; also the decoders' error prefix. */
  readonly path: string;
  readonly json: unknown;
}

export interface JobMessageBlobs {
  readonly blobs: readonly WireBlob[];
  /** Fields the walker does not know (neither a blob nor a known plain field). */
  readonly unknownFields: readonly string[];
}

const TOP_TOKENS = ['jobOutputs', 'jobContainer', 'jobServiceContainers', 'snapshot'];
const TOP_TOKEN_LISTS = ['environmentVariables', 'defaults'];
const TOP_PLAIN = [
  'messageType', 'plan', 'timeline', 'jobId', 'jobDisplayName', 'jobName', 'requestId', 'lockedUntil',
  'resources', 'variables', 'mask', 'steps', 'contextData', 'fileTable', 'actionsEnvironment',
  'jobSidecarContainers', 'workspace', 'billingOwnerId', 'dependencies', 'enableDebugger',
  'debuggerTunnel', 'debuggerWelcomeMessage',
];
const STEP_TOKENS = ['displayNameToken', 'inputs', 'environment', 'continueOnError', 'timeoutInMinutes'];
const STEP_PLAIN = [
  'type', 'id', 'name', 'displayName', 'contextName', 'condition', 'enabled', 'reference',
  'background', 'parallelGroupId', 'controlType', 'stepIds',
];
const ENVIRONMENT_PLAIN = ['name'];

type Json = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function findJobMessageBlobs(message: unknown): JobMessageBlobs {
  const blobs: WireBlob[] = [];
  const unknownFields: string[] = [];
  if (!isObject(message)) return { blobs, unknownFields: ['<message is not an object>'] };

  for (const [field, value] of Object.entries(message)) {
    if (TOP_TOKENS.includes(field)) {
      blobs.push({ kind: 'token', path: field, json: value });
    } else if (TOP_TOKEN_LISTS.includes(field)) {
      const list = Array.isArray(value) ? value : [];
      list.forEach((item, i) => blobs.push({ kind: 'token', path: `${field}[${i}]`, json: item }));
    } else if (!TOP_PLAIN.includes(field)) {
      unknownFields.push(field);
    }
  }

  const contextData = message['contextData'];
  if (isObject(contextData)) {
    for (const [name, value] of Object.entries(contextData)) {
      blobs.push({ kind: 'context', path: `contextData.${name}`, json: value });
    }
  }

  const steps = Array.isArray(message['steps']) ? (message['steps'] as readonly unknown[]) : [];
  steps.forEach((step, i) => {
    if (!isObject(step)) return;
    for (const [field, value] of Object.entries(step)) {
      if (STEP_TOKENS.includes(field)) blobs.push({ kind: 'token', path: `steps[${i}].${field}`, json: value });
      else if (!STEP_PLAIN.includes(field)) unknownFields.push(`steps[${i}].${field}`);
    }
  });

  const environment = message['actionsEnvironment'];
  if (isObject(environment)) {
    for (const [field, value] of Object.entries(environment)) {
      if (field === 'url') blobs.push({ kind: 'token', path: 'actionsEnvironment.url', json: value });
      else if (!ENVIRONMENT_PLAIN.includes(field)) unknownFields.push(`actionsEnvironment.${field}`);
    }
  }

  return { blobs, unknownFields };
}

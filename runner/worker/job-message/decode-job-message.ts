/**
 * The job message JSON → the worker's model (job-message-types.ts). Refuses, with a path, what
 * the runner cannot run: no `SystemVssConnection`, no `github` context, a member of the wrong
 * type, an unknown TemplateToken or context-data type code.
 */
import { decodeContextData, decodeTemplateToken, type JsonValue, type PipelineContextData, type TemplateToken } from '../../../core/protocol/index.js';
import { decodeSteps, tokenMember } from './decode-steps.js';
import type { ActionsEnvironment, JobMessage, JobMode, JobVariable, MaskHint, ServiceEndpoint } from './job-message-types.js';
import { JobMessageError, Members, isObject, stringMap } from './wire-members.js';

export const RUN_SERVICE_MESSAGE_TYPE = 'RunnerJobRequest';
export const LEGACY_MESSAGE_TYPE = 'PipelineAgentJobRequest';

/** Parses and decodes the body of a NewJobRequest. */
export function parseJobMessage(body: string): JobMessage {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw new JobMessageError(`the job message is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return decodeJobMessage(json);
}

export function decodeJobMessage(json: unknown): JobMessage {
  const m = new Members(json, '$');
  const messageType = m.optionalString('messageType') ?? LEGACY_MESSAGE_TYPE;
  const mode: JobMode = messageType.toLowerCase() === RUN_SERVICE_MESSAGE_TYPE.toLowerCase() ? 'run-service' : 'legacy';

  const planMembers = new Members(m.get('plan'), '$.plan');
  const plan = {
    scopeIdentifier: planMembers.optionalString('scopeIdentifier') ?? '00000000-0000-0000-0000-000000000000',
    planType: planMembers.optionalString('planType') ?? '',
    planId: planMembers.string('planId').toLowerCase(),
    version: planMembers.number('version', 0),
    ...optional('planGroup', planMembers.optionalString('planGroup')),
    ...optional('artifactUri', planMembers.optionalString('artifactUri')),
    ...optional('artifactLocation', planMembers.optionalString('artifactLocation')),
    ...optional('definition', planMembers.optional('definition')),
    ...optional('owner', planMembers.optional('owner')),
  };
  const timelineMembers = new Members(m.get('timeline'), '$.timeline');
  const timeline = { id: timelineMembers.string('id').toLowerCase(), changeId: timelineMembers.number('changeId', 0), location: timelineMembers.get('location') ?? null };

  const resources = new Members(m.get('resources') ?? {}, '$.resources');
  const endpoints = resources.array('endpoints').map((endpoint, i) => decodeEndpoint(endpoint, `$.resources.endpoints[${i}]`));
  const systemConnection = endpoints.find((endpoint) => endpoint.name.toLowerCase() === 'systemvssconnection');
  if (systemConnection === undefined) throw new JobMessageError('$.resources.endpoints: no SystemVssConnection endpoint');
  const resourceContainers = resources.array('containers');
  const resourceRepositories = resources.array('repositories');

  const contextData = decodeContexts(m.get('contextData'));
  if (contextData.get('github') === undefined && ![...contextData.keys()].some((key) => key.toLowerCase() === 'github')) {
    throw new JobMessageError('$.contextData: the github context is missing');
  }

  const jobOutputs = tokenMember(m, 'jobOutputs');
  const jobContainer = tokenMember(m, 'jobContainer');
  const jobServiceContainers = tokenMember(m, 'jobServiceContainers');
  const snapshot = tokenMember(m, 'snapshot');
  const sidecars = m.optional('jobSidecarContainers');
  const workspace = m.optional('workspace');
  const actionsEnvironment = decodeEnvironment(m.optional('actionsEnvironment'));
  const dependencies = m.optional('dependencies') === undefined ? undefined : strings(m.array('dependencies'), '$.dependencies');
  const enableDebugger = m.optionalBoolean('enableDebugger');
  const debuggerTunnel = m.optional('debuggerTunnel');
  const debuggerWelcomeMessage = m.optionalString('debuggerWelcomeMessage');
  const lockedUntil = m.optionalString('lockedUntil');
  const billingOwnerId = m.optionalString('billingOwnerId');

  const message: JobMessage = {
    messageType,
    mode,
    plan,
    timeline,
    jobId: m.string('jobId').toLowerCase(),
    jobDisplayName: m.optionalString('jobDisplayName') ?? '',
    jobName: m.optionalString('jobName') ?? '',
    requestId: m.number('requestId', 0),
    ...optional('lockedUntil', lockedUntil),
    endpoints,
    systemConnection,
    resourceContainers,
    resourceRepositories,
    variables: decodeVariables(m.optional('variables')),
    mask: m.array('mask').map((hint, i) => decodeMask(hint, `$.mask[${i}]`)),
    steps: decodeSteps(m.array('steps'), '$.steps'),
    contextData,
    fileTable: strings(m.array('fileTable'), '$.fileTable'),
    environmentVariables: tokens(m.array('environmentVariables'), '$.environmentVariables'),
    defaults: tokens(m.array('defaults'), '$.defaults'),
    ...optional('jobOutputs', jobOutputs),
    ...optional('jobContainer', jobContainer),
    ...optional('jobServiceContainers', jobServiceContainers),
    ...optional('jobSidecarContainers', sidecars === undefined ? undefined : stringMap(sidecars, '$.jobSidecarContainers')),
    ...optional('workspace', workspace === undefined ? undefined : decodeWorkspace(workspace)),
    ...optional('actionsEnvironment', actionsEnvironment),
    ...optional('snapshot', snapshot),
    ...optional('billingOwnerId', billingOwnerId),
    ...optional('dependencies', dependencies),
    ...optional('enableDebugger', enableDebugger),
    ...optional('debuggerTunnel', debuggerTunnel),
    ...optional('debuggerWelcomeMessage', debuggerWelcomeMessage),
    extra: {},
  };
  return { ...message, extra: m.rest() };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function strings(values: readonly JsonValue[], path: string): string[] {
  return values.map((value, i) => {
    if (typeof value !== 'string') throw new JobMessageError(`${path}[${i}]: expected a string`);
    return value;
  });
}

function tokens(values: readonly JsonValue[], path: string): TemplateToken[] {
  return values.map((value, i) => decodeTemplateToken(value, { path: `${path}[${i}]` }));
}

function decodeEndpoint(value: JsonValue, path: string): ServiceEndpoint {
  const e = new Members(value, path);
  const authorizationValue = e.optional('authorization');
  let authorization: ServiceEndpoint['authorization'] = null;
  if (authorizationValue !== undefined) {
    const a = new Members(authorizationValue, `${path}.authorization`);
    authorization = { scheme: a.optionalString('scheme') ?? '', parameters: stringMap(a.optional('parameters'), `${path}.authorization.parameters`) };
  }
  return {
    ...optional('id', e.optionalString('id')),
    name: e.string('name'),
    ...optional('type', e.optionalString('type')),
    ...optional('owner', e.optionalString('owner')),
    url: e.optionalString('url') ?? '',
    ...optional('description', e.optionalString('description')),
    authorization,
    ...optional('groupScopeId', e.optionalString('groupScopeId')),
    ...optional('isShared', e.optionalBoolean('isShared')),
    ...optional('isReady', e.optionalBoolean('isReady')),
    ...optional('operationStatus', e.optional('operationStatus')),
    data: stringMap(e.optional('data'), `${path}.data`),
  };
}

function decodeVariables(value: JsonValue | undefined): Map<string, JobVariable> {
  const variables = new Map<string, JobVariable>();
  if (value === undefined) return variables;
  if (!isObject(value)) throw new JobMessageError('$.variables: expected an object');
  for (const [name, entry] of Object.entries(value)) {
    if (entry === null) {
      variables.set(name, { value: '', isSecret: false });
      continue;
    }
    const v = new Members(entry, `$.variables[${JSON.stringify(name)}]`);
    variables.set(name, { value: v.optionalString('value') ?? '', isSecret: v.optionalBoolean('isSecret') ?? false });
  }
  return variables;
}

function decodeMask(value: JsonValue, path: string): MaskHint {
  const h = new Members(value, path);
  const type = h.optional('type');
  const name = typeof type === 'number' ? (type === 2 ? 'regex' : type === 1 ? 'variable' : String(type)) : typeof type === 'string' ? type : '';
  return { type: name, value: h.optionalString('value') ?? '' };
}

function decodeContexts(value: JsonValue | undefined): Map<string, PipelineContextData | null> {
  if (!isObject(value)) throw new JobMessageError('$.contextData: expected an object with the github context');
  const contexts = new Map<string, PipelineContextData | null>();
  for (const [name, data] of Object.entries(value)) contexts.set(name, decodeContextData(data, { path: `$.contextData.${name}` }));
  return contexts;
}

function decodeEnvironment(value: JsonValue | undefined): ActionsEnvironment | undefined {
  if (value === undefined) return undefined;
  const e = new Members(value, '$.actionsEnvironment');
  const url = tokenMember(e, 'url');
  return { name: e.optionalString('name') ?? '', ...(url === undefined ? {} : { url }) };
}

function decodeWorkspace(value: JsonValue): { clean?: string } {
  const w = new Members(value, '$.workspace');
  const clean = w.optionalString('clean');
  return clean === undefined ? {} : { clean };
}

/**
 * The 30 runner-facing service definitions connectionData advertises (spec: "30 runner-facing
 * service definitions, not the forge's whole hosted location catalog"). The runner never
 * hard-codes an `_apis` path: it looks each call's location GUID up here and fills the route
 * template (§1.3). GUIDs, areas and resource names are those of the runner's SDK
 * (actions/runner src/Sdk: DTGenerated/Generated/TaskAgentHttpClientBase.cs, TaskHttpClientBase.cs,
 * DTWebApi/WebApi/TaskResourceIds.cs, ActionsRunServerHttpClient.cs, WebApi/WebApi/ResourceLocationIds.cs,
 * PipelinesWebApi/PipelinesResourceIds.cs, Contracts/Location/Constants.cs).
 *
 * Route templates are ours to choose; the first sixteen are RUNNER-PROTOCOL.md §1.3's
 * conventional ones, and the routes that serve them must match. Bump
 * CONNECTION_DATA_CHANGE_ID whenever this list changes (the runner caches it per URL).
 */
export const CONNECTION_DATA_CHANGE_ID = 1;

export interface ResourceDefinition {
  readonly kind: 'resource';
  /** Location GUID (lower-case). */
  readonly id: string;
  /** `serviceType` on the wire; fills `{area}`. */
  readonly area: string;
  /** `displayName` on the wire; fills `{resource}`. */
  readonly resource: string;
  readonly routeTemplate: string;
  /** The resource version the runner's client asks for (it sends min(its own, ours)). */
  readonly resourceVersion: number;
}

/**
 * A location-service pointer (`LocationService2`, no resource version): not a REST resource but
 * an entry of the location map itself. We declare an empty service owner, so the runner treats
 * us as an on-premises server and never follows these to another host; they point at the tenant.
 */
export interface PointerDefinition {
  readonly kind: 'pointer';
  readonly id: string;
  readonly displayName: string;
}

export type ServiceDefinition = ResourceDefinition | PointerDefinition;

const DT = 'distributedtask';
const PLAN = '{scopeIdentifier}/_apis/distributedtask/hubs/{hubName}/plans/{planId}';

function resource(id: string, area: string, name: string, routeTemplate: string, resourceVersion = 1): ResourceDefinition {
  return { kind: 'resource', id, area, resource: name, routeTemplate, resourceVersion };
}

/** The Listener's and the Worker's calls (§1.3's table, with its conventional templates). */
export const RUNNER_RESOURCES: readonly ResourceDefinition[] = [
  resource('a8c47e17-4d56-4a56-92bb-de7ea7dc65be', DT, 'pools', '_apis/distributedtask/pools/{poolId}'),
  resource('e298ef32-5878-4cab-993c-043836571f42', DT, 'agents', '_apis/distributedtask/pools/{poolId}/agents/{agentId}', 2),
  resource('134e239e-2df3-4794-a6f6-24f1f19ec8dc', DT, 'sessions', '_apis/distributedtask/pools/{poolId}/sessions/{sessionId}'),
  resource('c3a054f6-7a8a-49c0-944e-3a8e5d7adfd7', DT, 'messages', '_apis/distributedtask/pools/{poolId}/messages/{messageId}'),
  resource('fc825784-c92a-4299-9221-998a02d1b54f', DT, 'jobrequests', '_apis/distributedtask/pools/{poolId}/jobrequests/{requestId}'),
  resource('8ffcd551-079c-493a-9c02-54346299d144', DT, 'packages', '_apis/distributedtask/packages/{packageType}/{platform}/{version}', 2),
  resource('8cc1b02b-ae49-4516-b5ad-4f9b29967c30', DT, 'updates', '_apis/distributedtask/pools/{poolId}/agents/{agentId}/updates'),
  resource('13b5d709-74aa-470b-a8e9-bf9f3ded3f18', DT, 'runnerconfigrefresh', '_apis/{area}/agents/{agentId}/{resource}/{configType}'),
  resource('25adab70-1379-4186-be8e-b643061ebe3a', DT, 'runnermessages', '_apis/{area}/{resource}/{messageId}'),
  resource('83597576-cc2c-453c-bea6-2882ae6a1653', DT, 'timelines', `${PLAN}/timelines/{timelineId}`),
  resource('8893bc5b-35b2-4be7-83cb-99e683551db4', DT, 'records', `${PLAN}/timelines/{timelineId}/records`),
  resource('858983e4-19bd-4c5e-864c-507b59b58b12', DT, 'feed', `${PLAN}/timelines/{timelineId}/records/{recordId}/feed`),
  resource('46f5667d-263a-4684-91b1-dff7fdcf64e2', DT, 'logs', `${PLAN}/logs/{logId}`),
  resource('7898f959-9cdf-4096-b29e-7f293031629e', DT, 'attachments', `${PLAN}/timelines/{timelineId}/records/{recordId}/attachments/{type}/{name}`),
  resource('557624af-b29e-4c20-8ab0-0399d2204f3f', DT, 'events', `${PLAN}/events`),
  resource('27d7f831-88c1-4719-8ca1-6a061dad90eb', DT, 'actiondownloadinfo', `${PLAN}/actiondownloadinfo`),
];

/**
 * Further resources the runner's SDK clients resolve: the bundled artifact plugin's file container
 * and pipeline artifacts, and the location client's own resources. Advertised so the runner gets a
 * clear HTTP answer, not a missing-location failure; nothing serves them yet.
 */
export const SDK_RESOURCES: readonly ResourceDefinition[] = [
  resource('e4f5c81e-e250-447b-9fef-bd48471bea5e', 'Container', 'Containers', '_apis/resources/{resource}/{containerId}'),
  resource('85023071-bd5e-4438-89b0-2a5bf362a19d', 'pipelines', 'artifacts', '_apis/{area}/workflows/{runId}/{resource}'),
  resource('00d9565f-ed9c-4a06-9a50-00e7896ccab4', 'Location', 'ConnectionData', '_apis/connectionData'),
  resource('d810a47d-f4f4-4a62-a03f-fa1860585c4c', 'Location', 'ServiceDefinitions', '_apis/{resource}/{serviceType}/{identifier}'),
  resource('a52f2f69-b171-4e88-9dfe-34b44cf7e386', 'Location', 'AccessMappings', '_apis/{resource}/{accessMappingMoniker}'),
  resource('e81700f7-3be2-46de-8624-2eb35882fcaa', 'Location', 'ResourceAreas', '_apis/{resource}/{areaId}'),
];

/**
 * The pre-scope ("_Compat") ids the SDK keeps beside the Worker's plan resources
 * (TaskResourceIds: Logs_Compat, PlanEvents_Compat, Timelines_Compat, TimelineRecords_Compat,
 * TimelineRecordFeeds_Compat). Same templates as their current ids, so one route serves both.
 */
export const COMPAT_RESOURCES: readonly ResourceDefinition[] = [
  resource('15344176-9e77-4cf4-a7c3-8bc4d0a3c4eb', DT, 'logs', `${PLAN}/logs/{logId}`),
  resource('dfed02fb-deee-4039-a04d-aa21d0241995', DT, 'events', `${PLAN}/events`),
  resource('ffe38397-3a9d-4ca6-b06d-49303f287ba5', DT, 'timelines', `${PLAN}/timelines/{timelineId}`),
  resource('50170d5d-f122-492f-9816-e2ef9f8d1756', DT, 'records', `${PLAN}/timelines/{timelineId}/records`),
  resource('9ae056f6-d4e4-4d0c-bd26-aee2a22f01f2', DT, 'feed', `${PLAN}/timelines/{timelineId}/records/{recordId}/feed`),
];

/** The location map's self-reference and the resource areas the runner's clients are tagged with. */
export const LOCATION_POINTERS: readonly PointerDefinition[] = [
  { kind: 'pointer', id: '464ccb8d-abaf-4793-b927-cfdc107791ee', displayName: 'Location Service' },
  { kind: 'pointer', id: 'a85b8835-c1a1-4aac-ae97-1c3d0ba72dbd', displayName: DT },
  { kind: 'pointer', id: '2e0bf237-8973-4ec9-a581-9c3d679d1776', displayName: 'pipelines' },
];

export const SERVICE_DEFINITIONS: readonly ServiceDefinition[] = [...RUNNER_RESOURCES, ...SDK_RESOURCES, ...COMPAT_RESOURCES, ...LOCATION_POINTERS];

import type { FastifyInstance } from 'fastify';
import { tenantUrl, type RunnerUrls } from '../urls/index.js';
import { CONNECTION_DATA_CHANGE_ID, SERVICE_DEFINITIONS, type ServiceDefinition } from './service-definitions.js';

export const CONNECTION_DATA_PATH = '/_apis/connectionData';

/** Identifies this control plane to the runner's location cache; fixed, like a hosted deployment's. */
export const SVC_INSTANCE_ID = '6f1c2a8e-9d47-4b53-a0e6-3c5b7d9e1f24';
/**
 * The empty service owner makes the runner treat us as an on-premises server: it uses this one
 * location map for every client and never walks resource-area pointers to other hosts.
 */
const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';
const PUBLIC_MAPPING = 'PublicAccessMapping';

function definitionWire(definition: ServiceDefinition, tenant: string) {
  if (definition.kind === 'pointer') {
    return {
      serviceType: 'LocationService2',
      identifier: definition.id,
      displayName: definition.displayName,
      relativeToSetting: 3,
      relativePath: null,
      serviceOwner: EMPTY_GUID,
      locationMappings: [{ accessMappingMoniker: PUBLIC_MAPPING, location: tenant }],
      resourceVersion: 0,
      status: 1,
      properties: {},
    };
  }
  return {
    serviceType: definition.area,
    identifier: definition.id,
    displayName: definition.resource,
    description: definition.resource,
    relativeToSetting: 3,
    relativePath: definition.routeTemplate,
    serviceOwner: EMPTY_GUID,
    locationMappings: [],
    resourceVersion: definition.resourceVersion,
    // 1.0..12.0 with nothing "released": every client version is accepted as a preview (§1.3).
    minVersion: '1.0',
    maxVersion: '12.0',
    releasedVersion: '0.0',
    status: 1,
    properties: {},
  };
}

/** The ConnectionData document (location service) for a tenant URL. */
export function connectionData(tenant: string) {
  return {
    instanceId: SVC_INSTANCE_ID,
    deploymentId: SVC_INSTANCE_ID,
    deploymentType: 'onPremises',
    locationServiceData: {
      serviceOwner: EMPTY_GUID,
      lastChangeId: CONNECTION_DATA_CHANGE_ID,
      lastChangeId64: CONNECTION_DATA_CHANGE_ID,
      clientCacheFresh: false,
      defaultAccessMappingMoniker: PUBLIC_MAPPING,
      accessMappings: [{ moniker: PUBLIC_MAPPING, displayName: 'Public Access Mapping', accessPoint: tenant }],
      serviceDefinitions: SERVICE_DEFINITIONS.map((definition) => definitionWire(definition, tenant)),
    },
  };
}

/**
 * `GET {tenant}/_apis/connectionData` (§1.3), anonymous as the runner's OAuth credential calls
 * it without a token. Always the full document, whatever `connectOptions`/`lastChangeId` say.
 */
export function registerConnectionDataRoute(app: FastifyInstance, deps: { readonly urls: RunnerUrls }): void {
  app.get(CONNECTION_DATA_PATH, async (request) => connectionData(tenantUrl(deps.urls.base(request))));
}

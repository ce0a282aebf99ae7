// Registration: the forge-side registration call, the runner-admin ("v2") registration, the
// location service (connectionData and its 30 service definitions), and JIT configurations for
// `run --jitconfig`.
export { parseRunnerUrl, REGISTRATION_PATH, registerRegistrationRoute, scopeUrlOf, type RegistrationRouteDeps } from './registration-route.js';
export {
  registerRunnerAdminRoutes,
  RUNNER_ADMIN_API,
  RUNNER_ADMIN_ENTITIES,
  RUNNER_ADMIN_REGISTER_PATH,
  type RunnerAdminDeps,
} from './runner-admin-routes.js';
export { parseXmlRsaPublicKey } from './xml-rsa-key.js';
export { osOfLabels, restRunner, restRunnerGroup } from './rest-runner.js';
export { CONNECTION_DATA_PATH, connectionData, registerConnectionDataRoute, SVC_INSTANCE_ID } from './connection-data.js';
export {
  COMPAT_RESOURCES,
  CONNECTION_DATA_CHANGE_ID,
  LOCATION_POINTERS,
  RUNNER_RESOURCES,
  SDK_RESOURCES,
  SERVICE_DEFINITIONS,
  type PointerDefinition,
  type ResourceDefinition,
  type ServiceDefinition,
} from './service-definitions.js';
export { encodeJitConfig, jitFiles, rsaParametersOf, type JitFilesInput } from './jit-files.js';
export { createJitProvisioner, jitLabels, type JitProvisioner, type JitRequest, type JitResult } from './jit-provisioner.js';
export { defaultJitLabels, JIT_PATH, registerJitRoute } from './jit-route.js';

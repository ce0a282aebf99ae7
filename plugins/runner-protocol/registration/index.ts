// Registration: the forge-side registration call, the location service (connectionData and its
// 30 service definitions), and JIT configurations for `run --jitconfig`.
export { parseRunnerUrl, REGISTRATION_PATH, registerRegistrationRoute, type RegistrationRouteDeps } from './registration-route.js';
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

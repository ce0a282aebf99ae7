// Isolation backends of the built-in pool, behind one interface, and the choice among them.
export type { BackendProbe, Guest, GuestAdoption, GuestExit, GuestLaunch, GuestLimits, IsolationBackend, IsolationKind } from './isolation-backend.js';
export { checkMicrovmHost, createMicrovmBackend, KVM_DEVICE, kvmUsable, type MicrovmBackendOptions } from './microvm/index.js';
export { createProcessBackend, PROCESS_BACKEND_WARNING } from './process/index.js';
export { selectBackend, type BackendSelection, type PoolBackendChoice, type SelectionInputs } from './select-backend.js';

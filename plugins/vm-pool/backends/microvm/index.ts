// The `microvm` isolation backend (KVM): probed, not implemented yet.
export { createMicrovmBackend, KVM_DEVICE, kvmUsable } from './microvm-backend.js';

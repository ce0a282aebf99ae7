// The `microvm` isolation backend: qemu guests (KVM, or TCG where asked) booting an initramfs svc builds.
export { createMicrovmBackend, type MicrovmBackendOptions } from './microvm-backend.js';
export { checkMicrovmHost, KVM_DEVICE, kvmUsable, type MicrovmAccel, type MicrovmHostOptions } from './host-requirements.js';

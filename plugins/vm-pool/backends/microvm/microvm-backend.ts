import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { NotImplementedError } from '../../../../core/kernel/index.js';
import type { BackendProbe, IsolationBackend } from '../isolation-backend.js';

export const KVM_DEVICE = '/dev/kvm';

/** Whether this process can open /dev/kvm for reading and writing. */
export async function kvmUsable(device: string = KVM_DEVICE): Promise<boolean> {
  try {
    await access(device, constants.R_OK | constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * `microvm`: KVM guests. The interface and its knob exist; the guests do not yet, so the probe
 * always fails, saying whether it is the host (no usable /dev/kvm) or svc that is missing.
 */
export function createMicrovmBackend(options: { readonly device?: string } = {}): IsolationBackend {
  const device = options.device ?? KVM_DEVICE;
  return {
    kind: 'microvm',
    async probe(): Promise<BackendProbe> {
      if (!(await kvmUsable(device))) return { ok: false, reason: `${device} is missing or not accessible` };
      return { ok: false, reason: 'microvm backend is not implemented yet' };
    },
    async launch() {
      throw new NotImplementedError('the microvm backend');
    },
  };
}

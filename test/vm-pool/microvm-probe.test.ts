/**
 * What the microvm probe tells a user on a host that lacks something (each reason says what to
 * install or set), and the module order the guest's init loads. No guest is booted here.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { checkMicrovmHost } from '../../plugins/vm-pool/backends/microvm/index.js';
import { resolveModules } from '../../plugins/vm-pool/backends/microvm/kernel-modules.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-mv-probe-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const reason = (check: ReturnType<typeof checkMicrovmHost>) => (check.ok ? 'ok' : check.reason);

describe('microvm probe reasons', { skip: process.platform !== 'linux' || (process.arch !== 'x64' && process.arch !== 'arm64') ? 'microvm guests need Linux on x86_64 or arm64' : false }, () => {
  it('names the missing piece and how to get it', () => {
    assert.match(reason(checkMicrovmHost({ device: join(dir, 'kvm') })), /kvm is missing or not accessible: enable KVM .*kvm group, or set SVC_POOL_MICROVM_ACCEL=tcg/);
    assert.match(reason(checkMicrovmHost({ accel: 'tcg', qemu: join(dir, 'qemu') })), /^SVC_POOL_MICROVM_QEMU=.*\/qemu is not an executable file$/);
    const qemu = join(dir, 'qemu-system');
    writeFileSync(qemu, '#!/bin/sh\n', { mode: 0o755 });
    const emptyBoot = join(dir, 'boot');
    mkdirSync(emptyBoot);
    assert.match(reason(checkMicrovmHost({ accel: 'tcg', qemu, bootDir: emptyBoot })), /no \/boot\/vmlinuz-\* was found: install the Debian package linux-image-amd64 .*or set SVC_POOL_MICROVM_KERNEL/);
    assert.match(reason(checkMicrovmHost({ accel: 'tcg', qemu, kernel: join(dir, 'nope') })), /^SVC_POOL_MICROVM_KERNEL=.*\/nope does not exist$/);
    writeFileSync(join(emptyBoot, 'vmlinuz-9.9.9-test'), 'not a real kernel');
    assert.match(reason(checkMicrovmHost({ accel: 'tcg', qemu, bootDir: emptyBoot, modulesRoot: join(dir, 'modules') })), /has no modules directory .*9\.9\.9-test: reinstall its package \(apt-get install --reinstall linux-image-9\.9\.9-test\)/);
  });
});

describe('microvm guest modules', () => {
  it('loads dependencies first, skips built-in modules and names a missing one', () => {
    const modules = join(dir, 'lib-modules');
    mkdirSync(modules);
    writeFileSync(join(modules, 'modules.dep'), [
      'kernel/fs/9p/9p.ko: kernel/net/9p/9pnet.ko kernel/fs/netfs/netfs.ko',
      'kernel/net/9p/9pnet.ko:',
      'kernel/fs/netfs/netfs.ko:',
      'kernel/net/9p/9pnet_virtio.ko: kernel/net/9p/9pnet.ko kernel/drivers/virtio/virtio.ko',
      'kernel/drivers/virtio/virtio.ko:',
      '',
    ].join('\n'));
    writeFileSync(join(modules, 'modules.builtin'), 'kernel/fs/overlayfs/overlay.ko\n');
    assert.deepEqual(resolveModules(modules, ['9pnet_virtio', '9p', 'overlay']).map((module) => module.name), ['9pnet', 'virtio', '9pnet_virtio', 'netfs', '9p']);
    assert.throws(() => resolveModules(modules, ['virtio_net']), /the guest kernel has no virtio_net module in .* and does not build it in/);
  });
});

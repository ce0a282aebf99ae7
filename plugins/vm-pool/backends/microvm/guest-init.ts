/** The 9p tag of the runner root; the init reads the guest's launch file from it. */
export const RUNNER_ROOT_TAG = 'svcroot';
/** The launch file the host writes (mode 0600) into the runner root and the init deletes. */
export const LAUNCH_FILE = '.svc-microvm-launch';

/**
 * The initramfs's `/init` (busybox sh), the same for every guest: loads the modules, mounts the
 * runner root, takes the launch file out of it (so the JIT config never stays on disk nor goes
 * on the kernel command line) and runs it. A guest that cannot start powers off (qemu runs with
 * -no-reboot), and the host reports the console's last lines.
 */
export const GUEST_INIT = `#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
svc_halt() { echo "svc guest: $*"; sync; reboot -f; }
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# No echo: the host's "svc-stop" line must not come back as output.
stty -echo < /dev/console 2>/dev/null
while read -r svc_module; do
  insmod "/lib/modules/$svc_module.ko" || svc_halt "cannot load the kernel module $svc_module"
done < /lib/modules/order
mkdir -p /run/launch
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=mmap ${RUNNER_ROOT_TAG} /run/launch || svc_halt "cannot mount the runner root"
cp /run/launch/${LAUNCH_FILE} /run/guest.sh && rm -f /run/launch/${LAUNCH_FILE} || svc_halt "no launch file in the runner root"
. /run/guest.sh
svc_halt "the launch file returned"
`;

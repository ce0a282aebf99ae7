import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The host programs a guest needs; all from util-linux and iproute2 except the forwarder's node. */
export const REQUIRED_TOOLS = ['unshare', 'mount', 'umount', 'pivot_root', 'setpriv', 'ip', 'sh'] as const;
export type RequiredTool = (typeof REQUIRED_TOOLS)[number];

const SYSTEM_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** Absolute path of `name` on the host PATH (plus the system directories), or undefined. */
export function findTool(name: string, override?: string): string | undefined {
  if (override !== undefined) return isExecutable(override) ? override : undefined;
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== ''), ...SYSTEM_PATH];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

export function missingTools(): RequiredTool[] {
  return REQUIRED_TOOLS.filter((tool) => findTool(tool) === undefined);
}

/** The real path of the node binary that runs svc; the guest's forwarder runs on it. */
export function forwarderNode(): string {
  return realpathSync(process.execPath);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

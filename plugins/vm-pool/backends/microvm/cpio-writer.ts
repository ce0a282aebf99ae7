/** One entry of a `newc` cpio archive (the format the kernel unpacks as an initramfs). */
export type CpioEntry =
  | { readonly kind: 'dir'; readonly path: string; readonly mode?: number }
  | { readonly kind: 'file'; readonly path: string; readonly data: Buffer; readonly mode?: number }
  | { readonly kind: 'symlink'; readonly path: string; readonly target: string }
  | { readonly kind: 'char'; readonly path: string; readonly major: number; readonly minor: number; readonly mode?: number };

const TYPE_BITS = { dir: 0o040000, file: 0o100000, symlink: 0o120000, char: 0o020000 } as const;
const DEFAULT_MODE = { dir: 0o755, file: 0o644, symlink: 0o777, char: 0o600 } as const;

function hex(value: number): string {
  return value.toString(16).padStart(8, '0');
}

function pad4(length: number): Buffer {
  return Buffer.alloc((4 - (length % 4)) % 4);
}

function record(ino: number, mode: number, name: string, data: Buffer, rdev: readonly [number, number] = [0, 0]): Buffer[] {
  const nameBytes = Buffer.from(`${name}\0`, 'utf8');
  // Fields: ino mode uid gid nlink mtime filesize devmajor devminor rdevmajor rdevminor namesize check.
  const fields = [ino, mode, 0, 0, mode & TYPE_BITS.dir ? 2 : 1, 0, data.length, 0, 0, rdev[0], rdev[1], nameBytes.length, 0];
  const header = Buffer.from(`070701${fields.map(hex).join('')}`, 'ascii');
  return [header, nameBytes, pad4(header.length + nameBytes.length), data, pad4(data.length)];
}

/**
 * A `newc` archive of `entries` (owned by root, mtime 0, so the same input gives the same bytes).
 * Parents must come before their children; paths are relative (`bin/busybox`).
 */
export function writeCpio(entries: readonly CpioEntry[]): Buffer {
  const parts: Buffer[] = [];
  entries.forEach((entry, index) => {
    const mode = TYPE_BITS[entry.kind] | (entry.kind === 'symlink' ? DEFAULT_MODE.symlink : (entry.mode ?? DEFAULT_MODE[entry.kind]));
    const data = entry.kind === 'file' ? entry.data : entry.kind === 'symlink' ? Buffer.from(entry.target, 'utf8') : Buffer.alloc(0);
    parts.push(...record(index + 1, mode, entry.path, data, entry.kind === 'char' ? [entry.major, entry.minor] : [0, 0]));
  });
  parts.push(...record(0, 0, 'TRAILER!!!', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

import { spawn } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { findTool } from '../namespace/host-tools.js';

const XEN_ELFNOTE_PHYS32_ENTRY = 18;
const PT_NOTE = 4;

/** The compressed payload of an x86 bzImage (boot protocol 2.08+), or undefined. */
function bzImagePayload(image: Buffer): Buffer | undefined {
  if (image.length < 0x250 || image.toString('latin1', 0x202, 0x206) !== 'HdrS' || image.readUInt16LE(0x206) < 0x208) return undefined;
  const setupSectors = image[0x1f1] === 0 ? 4 : (image[0x1f1] ?? 4);
  const start = (setupSectors + 1) * 512 + image.readUInt32LE(0x248);
  const end = start + image.readUInt32LE(0x24c);
  return end <= image.length ? image.subarray(start, end) : undefined;
}

/** The decompressed kernel (gzip in process; xz and zstd through their tools, off the event loop). */
async function decompress(payload: Buffer): Promise<Buffer | undefined> {
  if (payload[0] === 0x1f && payload[1] === 0x8b) return gunzipSync(payload);
  const tool = payload.toString('hex', 0, 6) === 'fd377a585a00' ? 'xz' : payload.toString('hex', 0, 4) === '28b52ffd' ? 'zstd' : undefined;
  const binary = tool === undefined ? undefined : findTool(tool);
  if (binary === undefined) return undefined;
  const child = spawn(binary, tool === 'xz' ? ['-dc', '--single-stream'] : ['-dc'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stdin.on('error', () => undefined);
  child.stdin.end(payload);
  const code = await new Promise<number | null>((resolve) => {
    child.once('close', resolve);
    child.once('error', () => resolve(null));
  });
  return code === 0 ? Buffer.concat(chunks) : undefined;
}

/** Whether an ELF64 image carries the PVH entry note (qemu then boots it directly). */
function hasPvhEntry(elf: Buffer): boolean {
  if (elf.length < 64 || elf.toString('latin1', 0, 4) !== '\x7fELF' || elf[4] !== 2) return false;
  const phoff = Number(elf.readBigUInt64LE(0x20));
  const phentsize = elf.readUInt16LE(0x36);
  for (let i = 0; i < elf.readUInt16LE(0x38); i += 1) {
    const header = phoff + i * phentsize;
    if (elf.readUInt32LE(header) !== PT_NOTE) continue;
    let at = Number(elf.readBigUInt64LE(header + 8));
    const end = at + Number(elf.readBigUInt64LE(header + 32));
    while (at + 12 <= end) {
      const nameSize = elf.readUInt32LE(at);
      const descSize = elf.readUInt32LE(at + 4);
      if (elf.readUInt32LE(at + 8) === XEN_ELFNOTE_PHYS32_ENTRY && elf.toString('latin1', at + 12, at + 15) === 'Xen') return true;
      at += 12 + Math.ceil(nameSize / 4) * 4 + Math.ceil(descSize / 4) * 4;
    }
  }
  return false;
}

/**
 * The image qemu boots fastest: on x86, the bzImage's kernel decompressed once (cached in
 * `cacheDir`) and booted through its PVH entry, which skips the firmware and the kernel's own
 * decompression at every boot (~0.2 s with KVM, seconds with TCG). Falls back to the image as it
 * is (another architecture, no PVH entry, no decompressor for its format).
 */
export async function bootableKernel(kernel: string, kernelVersion: string, cacheDir: string): Promise<string> {
  if (process.arch !== 'x64') return kernel;
  const info = statSync(kernel);
  const path = join(cacheDir, `vmlinux-${kernelVersion}-${info.size}-${Math.floor(info.mtimeMs)}`);
  const failed = `${path}.unusable`;
  for (const [candidate, usable] of [[path, true], [failed, false]] as const) {
    try {
      statSync(candidate);
      return usable ? candidate : kernel;
    } catch {
      // not cached
    }
  }
  const payload = bzImagePayload(await readFile(kernel));
  const elf = payload === undefined ? undefined : await decompress(payload);
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  if (elf === undefined || !hasPvhEntry(elf)) {
    await writeFile(failed, '');
    return kernel;
  }
  // Written aside and renamed: a concurrent launch never boots a half-written image.
  const partial = `${path}.${process.pid}.${Date.now()}.partial`;
  await writeFile(partial, elf, { mode: 0o600 });
  await rename(partial, path);
  return path;
}

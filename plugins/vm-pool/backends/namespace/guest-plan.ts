import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, isAbsolute, join, sep } from 'node:path';
import { ConfigError, InputError } from '../../../../core/kernel/index.js';
import type { GuestLaunch, GuestMount } from '../isolation-backend.js';

/** Host system directories the guest sees through a per-guest writable overlay (or as symlinks). */
const SYSTEM_DIRS = ['usr', 'bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32', 'etc', 'opt'] as const;

export type TopLevelEntry = { readonly name: string; readonly kind: 'overlay' } | { readonly name: string; readonly kind: 'symlink'; readonly target: string };

/** Everything the guest init needs to assemble the guest, computed on the host. */
export interface GuestPlan {
  readonly guestId: string;
  /** Host-side state: `root` (mount point of the guest's root) and `scratch` (overlay layers). */
  readonly stateDir: string;
  readonly topLevel: readonly TopLevelEntry[];
  /** Host directories bound read-only at the same path, parents first. */
  readonly readOnlyBinds: readonly string[];
  /** Paths inside a read-only bind covered by an empty tmpfs (the data dir, the socket's dir). */
  readonly masks: readonly string[];
  readonly runnerRoot: string;
  /** The launch's mounts (real paths), bound after the runner root. */
  readonly mounts: readonly GuestMount[];
  /**
   * The runner socket and the port the forwarder answers on, when there is a socket. `socketDir`:
   * a directory of the guest's state holding a hard link to the socket (`runner.sock`), bound
   * into the guest instead of the socket file, so that a restarted server's new socket reaches a
   * guest that outlived the old one (guest-socket.ts).
   */
  readonly forward: { readonly socket: string; readonly port: number; readonly socketDir?: string } | undefined;
  readonly hosts: string;
  readonly network: boolean;
  readonly command: string;
  readonly args: readonly string[];
  /** Variables the shell adds on its own that are not in the launch's env. */
  readonly unset: readonly string[];
}

export interface PlanContext {
  readonly dataDir: string;
  readonly stateDir: string;
  readonly forwarderNode: string;
}

const GUEST_ID = /^[a-z0-9-]{1,40}$/;

export function planGuest(spec: GuestLaunch, context: PlanContext): GuestPlan {
  if (!GUEST_ID.test(spec.guestId)) throw new InputError(`guest id "${spec.guestId}" must be 1-40 characters of [a-z0-9-]`);
  if (/[,:\\]/.test(context.stateDir)) throw new ConfigError(`the data dir ${context.dataDir} cannot contain ',', ':' or '\\' (overlayfs options name its paths)`);
  if (!isAbsolute(spec.runnerRoot) || !existsSync(spec.runnerRoot)) throw new InputError(`runner root ${spec.runnerRoot} must be an existing absolute path`);
  const topLevel = topLevelEntries();
  const covered = topLevel.map((entry) => `/${entry.name}`);
  const runnerRoot = realpathSync(spec.runnerRoot);
  const wanted = new Set<string>();
  for (const binary of [spec.command, context.forwarderNode]) {
    const prefix = installPrefix(binary);
    if (prefix !== undefined) wanted.add(prefix);
  }
  for (const arg of spec.args) {
    for (const candidate of pathsIn(arg)) {
      const dir = projectDir(candidate);
      if (dir !== undefined && !isWithin(dir, runnerRoot)) wanted.add(dir);
    }
  }
  const readOnlyBinds = minimal([...wanted].filter((dir) => dir !== '/' && !covered.some((top) => isWithin(dir, top))));
  const hidden = [context.dataDir, ...(spec.runnerSocket === undefined ? [] : [dirname(spec.runnerSocket)])].map(realOrSelf);
  const masks = minimal(hidden.filter((path) => readOnlyBinds.some((bind) => path !== bind && isWithin(path, bind))));
  return {
    guestId: spec.guestId,
    stateDir: context.stateDir,
    topLevel,
    readOnlyBinds,
    masks,
    runnerRoot,
    mounts: spec.mounts.map((mount) => {
      if (!isAbsolute(mount.path) || !existsSync(mount.path)) throw new InputError(`guest mount ${mount.path} must be an existing absolute path`);
      if (/[,:\\]/.test(mount.path)) throw new ConfigError(`${mount.path} cannot be shared with guests: its path holds ',', ':' or '\\'`);
      return { path: realpathSync(mount.path), writable: mount.writable };
    }),
    forward: spec.runnerSocket === undefined ? undefined : { socket: spec.runnerSocket, port: serverPort(spec.serverUrl) },
    hosts: hostsFile(spec.serverUrl),
    network: spec.network,
    command: spec.command,
    args: spec.args,
    unset: ['PWD', 'OLDPWD'].filter((name) => !(name in spec.env)),
  };
}

function topLevelEntries(): TopLevelEntry[] {
  const entries: TopLevelEntry[] = [];
  for (const name of SYSTEM_DIRS) {
    const path = `/${name}`;
    let info;
    try {
      info = lstatSync(path);
    } catch {
      continue;
    }
    if (info.isSymbolicLink()) entries.push({ name, kind: 'symlink', target: readlinkSync(path) });
    else if (info.isDirectory()) entries.push({ name, kind: 'overlay' });
  }
  return entries;
}

/** The directory holding a binary's installation: `<prefix>/bin/node` -> `<prefix>`. */
function installPrefix(binary: string): string | undefined {
  if (!isAbsolute(binary) || !existsSync(binary)) return undefined;
  const dir = dirname(realpathSync(binary));
  return dir.endsWith(`${sep}bin`) ? dirname(dir) : dir;
}

/** Absolute existing paths an argument names: `/x`, `file:///x`, `--opt=/x`. */
function pathsIn(arg: string): string[] {
  const values = [arg, ...(arg.includes('=') ? [arg.slice(arg.indexOf('=') + 1)] : [])];
  const paths: string[] = [];
  for (let value of values) {
    if (value.startsWith('file://')) value = decodeURIComponent(new URL(value).pathname);
    if (isAbsolute(value) && existsSync(value)) paths.push(realpathSync(value));
  }
  return paths;
}

/** The project a path belongs to (nearest directory with a package.json), else its directory. */
function projectDir(path: string): string | undefined {
  const start = statSync(path).isDirectory() ? path : dirname(path);
  for (let dir = start; dirname(dir) !== dir; dir = dirname(dir)) {
    if (dirname(dir) === '/' && dir !== start) break; // never widen to a top-level directory
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return start;
}

function serverPort(serverUrl: string): number {
  const url = new URL(serverUrl);
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

function hostsFile(serverUrl: string): string {
  const host = new URL(serverUrl).hostname.replace(/^\[|\]$/g, '');
  const names = ['localhost', 'svc.localhost', ...(isIP(host) === 0 && host !== 'localhost' && host !== 'svc.localhost' ? [host] : [])];
  return `127.0.0.1\t${names.join(' ')}\n::1\tip6-localhost ip6-loopback\n`;
}

function isWithin(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir === '/' ? '/' : `${dir}/`);
}

/** Drops paths inside another path of the list; parents first. */
function minimal(paths: readonly string[]): string[] {
  const sorted = [...new Set(paths)].sort((a, b) => a.length - b.length);
  return sorted.filter((path, index) => !sorted.slice(0, index).some((parent) => parent !== path && isWithin(path, parent)));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

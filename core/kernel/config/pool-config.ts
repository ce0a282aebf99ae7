import { availableParallelism } from 'node:os';
import { ConfigError } from '../errors.js';
import { integerKnob, switchOnByDefault, type KnobReport } from './knobs.js';

/** `SVC_POOL_BACKEND`: which isolation backend the built-in pool uses (`off`: no pool). */
export type PoolBackendChoice = 'auto' | 'process' | 'namespace' | 'microvm' | 'off';
export const POOL_BACKEND_CHOICES: readonly PoolBackendChoice[] = ['auto', 'process', 'namespace', 'microvm', 'off'];

/** The built-in pool's knobs (plugins/vm-pool/README.md). */
export interface PoolConfig {
  readonly backend: PoolBackendChoice;
  /** SVC_POOL_WARM: idle guests kept ready (default 2; at most `max`). */
  readonly warm: number;
  /** SVC_POOL_MAX: guests at most, idle and busy (default: the number of CPUs, at least 2). */
  readonly max: number;
  /** SVC_POOL_LABELS: the labels every guest serves. */
  readonly labels: readonly string[];
  /** SVC_POOL_STOP_GRACE_SECONDS: how long a stopped guest's job may wind down (default 60). */
  readonly stopGraceSecs: number;
  /** SVC_POOL_RUNNER_COMMAND, split into words: the program (and its first arguments) a guest runs. */
  readonly runnerCommand: readonly string[] | undefined;
  /** SVC_POOL_NETWORK: whether guests get outbound network (default on; `off` keeps jobs offline). */
  readonly network: boolean;
  /**
   * SVC_POOL_TOOL_CACHE: the tool cache every guest shares (RUNNER_TOOL_CACHE), an absolute path;
   * undefined: `<data dir>/tool-cache`; `off`: none shared (each guest starts with an empty one).
   */
  readonly toolCache: string | 'off' | undefined;
  /** SVC_RUNNER_NODE_DIST: where the pool's node20/node24 runtimes come from (a nodejs.org/dist mirror, URL or directory). */
  readonly nodeDist: string | undefined;
  /** The microvm backend's knobs. */
  readonly microvm: MicrovmConfig;
}

/** `SVC_POOL_MICROVM_ACCEL`: how microvm guests get their CPU (`tcg`: qemu's emulation, slow, no KVM needed). */
export type MicrovmAccelChoice = 'kvm' | 'tcg';

export interface MicrovmConfig {
  /** SVC_POOL_MICROVM_QEMU: the qemu-system binary (default: found on the PATH). */
  readonly qemu: string | undefined;
  /** SVC_POOL_MICROVM_KERNEL: the guest kernel image (default: the newest /boot/vmlinuz-*). */
  readonly kernel: string | undefined;
  /** SVC_POOL_MICROVM_ACCEL: `kvm` (default) or `tcg`. */
  readonly accel: MicrovmAccelChoice;
  /** SVC_POOL_MICROVM_CPUS: virtual CPUs per guest (default: the host's CPU count). */
  readonly cpus: number;
}

/** The host architecture's runner label (`x64`, `arm64`, ...), as the runner names it. */
export function architectureLabel(arch: string = process.arch): string {
  return arch === 'x64' ? 'x64' : arch === 'arm64' ? 'arm64' : arch === 'arm' ? 'arm' : arch === 'ia32' ? 'x86' : arch;
}

export function defaultPoolLabels(arch: string = process.arch): string[] {
  return ['self-hosted', 'linux', architectureLabel(arch), 'ubuntu-latest', 'ubuntu-24.04', 'ubuntu-22.04'];
}

function poolLabels(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return defaultPoolLabels();
  const labels = raw.split(',').map((label) => label.trim());
  for (const label of labels) {
    if (label === '') throw new ConfigError(`SVC_POOL_LABELS='${raw}' has an empty label; give a comma-separated list, e.g. self-hosted,linux,ubuntu-latest`);
    if (label.length > 255 || /[\u0000-\u001f\u007f]/.test(label)) {
      throw new ConfigError(`SVC_POOL_LABELS: '${label.slice(0, 40)}' is not a label (at most 255 characters, no control characters)`);
    }
  }
  const seen = new Set<string>();
  return labels.filter((label) => !seen.has(label.toLowerCase()) && seen.add(label.toLowerCase()));
}

/** Splits a command line into words: blanks separate, '...' and "..." quote, \ escapes outside '...'. */
export function splitCommandLine(name: string, raw: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw.charAt(i);
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (c === '\\' && i + 1 < raw.length && (quote === undefined || /["\\$`]/.test(raw.charAt(i + 1)))) {
      i += 1;
      word = (word ?? '') + raw.charAt(i);
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (quote !== undefined) throw new ConfigError(`${name} has an unclosed ${quote} quote: ${raw}`);
  if (word !== undefined) words.push(word);
  return words;
}

function absolutePathKnob(name: string, raw: string | undefined): string | undefined {
  const path = raw?.trim();
  if (path === undefined || path === '') return undefined;
  if (!path.startsWith('/')) throw new ConfigError(`${name}='${raw ?? ''}' must be an absolute path`);
  return path;
}

/** A nodejs.org/dist mirror: an http(s) or file URL, or an absolute directory. */
function nodeDistKnob(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  if (value === undefined || value === '') return undefined;
  if (!/^(https?|file):\/\//i.test(value) && !value.startsWith('/')) {
    throw new ConfigError(`SVC_RUNNER_NODE_DIST='${raw ?? ''}' must be an http(s) URL or an absolute directory laid out as https://nodejs.org/dist`);
  }
  return value;
}

function readMicrovmConfig(env: Readonly<Record<string, string | undefined>>, report: KnobReport): MicrovmConfig {
  const rawAccel = env.SVC_POOL_MICROVM_ACCEL?.trim().toLowerCase();
  const accel = rawAccel === undefined || rawAccel === '' ? 'kvm' : rawAccel;
  if (accel !== 'kvm' && accel !== 'tcg') throw new ConfigError(`SVC_POOL_MICROVM_ACCEL='${env.SVC_POOL_MICROVM_ACCEL ?? ''}' is not allowed; use kvm or tcg`);
  return {
    qemu: absolutePathKnob('SVC_POOL_MICROVM_QEMU', env.SVC_POOL_MICROVM_QEMU),
    kernel: absolutePathKnob('SVC_POOL_MICROVM_KERNEL', env.SVC_POOL_MICROVM_KERNEL),
    accel,
    cpus: integerKnob({ name: 'SVC_POOL_MICROVM_CPUS', defaultValue: availableParallelism(), min: 1, belowMinIsInvalid: true }, env.SVC_POOL_MICROVM_CPUS, report),
  };
}

export function readPoolConfig(env: Readonly<Record<string, string | undefined>>, report: KnobReport): PoolConfig {
  const rawBackend = env.SVC_POOL_BACKEND?.trim().toLowerCase();
  const backend = rawBackend === undefined || rawBackend === '' ? 'auto' : rawBackend;
  if (!(POOL_BACKEND_CHOICES as readonly string[]).includes(backend)) {
    throw new ConfigError(`SVC_POOL_BACKEND='${env.SVC_POOL_BACKEND ?? ''}' is not allowed; use one of: ${POOL_BACKEND_CHOICES.join(', ')}`);
  }
  const defaultMax = Math.max(2, availableParallelism());
  const max = integerKnob({ name: 'SVC_POOL_MAX', defaultValue: defaultMax, min: 1, belowMinIsInvalid: true }, env.SVC_POOL_MAX, report);
  let warm = integerKnob({ name: 'SVC_POOL_WARM', defaultValue: Math.min(2, max), min: 0 }, env.SVC_POOL_WARM, report);
  if (warm > max) {
    report.warnings.push(`SVC_POOL_WARM=${warm} is more than SVC_POOL_MAX=${max}; keeping ${max} guests warm`);
    warm = max;
  }
  const rawCommand = env.SVC_POOL_RUNNER_COMMAND;
  let runnerCommand: string[] | undefined;
  if (rawCommand !== undefined && rawCommand.trim() !== '') {
    runnerCommand = splitCommandLine('SVC_POOL_RUNNER_COMMAND', rawCommand);
    if (runnerCommand.length === 0) throw new ConfigError('SVC_POOL_RUNNER_COMMAND is empty; give the command that starts svc-runner, e.g. /usr/local/bin/svc-runner');
  }
  return {
    backend: backend as PoolBackendChoice,
    warm,
    max,
    labels: poolLabels(env.SVC_POOL_LABELS),
    stopGraceSecs: integerKnob({ name: 'SVC_POOL_STOP_GRACE_SECONDS', defaultValue: 60, min: 0 }, env.SVC_POOL_STOP_GRACE_SECONDS, report),
    runnerCommand,
    network: switchOnByDefault(env.SVC_POOL_NETWORK),
    toolCache: env.SVC_POOL_TOOL_CACHE?.trim().toLowerCase() === 'off' ? 'off' : absolutePathKnob('SVC_POOL_TOOL_CACHE', env.SVC_POOL_TOOL_CACHE),
    nodeDist: nodeDistKnob(env.SVC_RUNNER_NODE_DIST),
    microvm: readMicrovmConfig(env, report),
  };
}

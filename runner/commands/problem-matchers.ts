/**
 * Problem matchers as the runner applies them to a step's output: the job keeps a list of matcher
 * configurations (newest file first); each output stream runs its own matcher states over it. A
 * line goes to each matcher in turn; the first that completes a match with a usable message
 * becomes an annotation and stops the search, and a match also resets every other matcher's
 * multi-line progress.
 *
 * The runner gives each step fresh states (one OutputManager per stream per step) and, while a
 * step runs, puts a newly added file's matchers in front one by one (so in reverse file order);
 * the next step sees the job's list in file order. `match` uses the default stream; call
 * `beginStep()` when a step starts, and `openStream()` for a second stream (stderr).
 */
import { posix, win32 } from 'node:path';
import type { AnnotationEffect, AnnotationLevel } from './command-effects.js';
import { readMatcherFile, readMatcherOwners, type MatcherConfig, type PatternConfig } from './problem-matcher-config.js';

export interface ProblemMatchersOptions {
  /** `github.workspace`: relative file paths are rooted here and matches are reported relative to it. */
  readonly workspace?: string;
  readonly platform?: NodeJS.Platform;
  /**
   * Decides the reported file for an absolute, normalised path: return the path relative to the
   * repository (with `/`), or undefined to drop it. The runner keeps only existing files under the
   * workflow repository; the default keeps any path under `workspace`.
   */
  readonly resolveFile?: (absolutePath: string) => string | undefined;
}

interface Captured {
  readonly file: string | undefined;
  readonly line: string | undefined;
  readonly column: string | undefined;
  readonly severity: string | undefined;
  readonly code: string | undefined;
  readonly message: string | undefined;
  readonly fromPath: string | undefined;
}

function group(match: RegExpExecArray, index: number | undefined): string | undefined {
  if (index === undefined || index >= match.length) return undefined;
  return match[index] ?? '';
}

function capture(running: Captured | undefined, pattern: PatternConfig, match: RegExpExecArray): Captured {
  return {
    file: running?.file ?? group(match, pattern.file),
    line: running?.line ?? group(match, pattern.line),
    column: running?.column ?? group(match, pattern.column),
    severity: running?.severity ?? group(match, pattern.severity),
    code: running?.code ?? group(match, pattern.code),
    message: running?.message ?? group(match, pattern.message),
    fromPath: running?.fromPath ?? group(match, pattern.fromPath),
  };
}

/** One matcher's progress through its patterns. */
class MatcherState {
  private state: Array<Captured | undefined>;

  constructor(readonly config: MatcherConfig) {
    this.state = new Array<Captured | undefined>(config.patterns.length - 1).fill(undefined);
  }

  reset(): void {
    this.state.fill(undefined);
  }

  match(line: string): Captured | undefined {
    const patterns = this.config.patterns;
    if (patterns.length === 1) {
      const found = patterns[0]!.regexp.exec(line);
      return found ? this.withDefaults(capture(undefined, patterns[0]!, found)) : undefined;
    }
    // Later patterns first, so one line never advances a match by two patterns.
    for (let i = patterns.length - 1; i >= 0; i--) {
      const running = i > 0 ? this.state[i - 1] : undefined;
      if (i > 0 && running === undefined) continue;
      const pattern = patterns[i]!;
      const last = i === patterns.length - 1;
      const found = pattern.regexp.exec(line);
      if (found) {
        if (last) {
          this.reset();
          if (pattern.loop) this.state[i - 1] = running;
          return this.withDefaults(capture(running, pattern, found));
        }
        this.state[i] = capture(running, pattern, found);
      } else if (last) {
        this.state[i - 1] = undefined;
      } else {
        this.state[i] = undefined;
      }
    }
    return undefined;
  }

  private withDefaults(found: Captured): Captured {
    return {
      ...found,
      severity: found.severity ? found.severity : this.config.severity || found.severity,
      fromPath: found.fromPath ? found.fromPath : this.config.fromPath || found.fromPath,
    };
  }
}

/** The matcher states of one output stream. */
export class ProblemMatcherStream {
  private states: MatcherState[];

  constructor(
    private readonly registry: ProblemMatchers,
    configs: readonly MatcherConfig[],
  ) {
    this.states = configs.map((c) => new MatcherState(c));
  }

  /** The annotation for this line, if a matcher completes on it. */
  match(line: string): AnnotationEffect | undefined {
    const states = this.states;
    // The runner strips what it takes for colour codes first; its pattern is NUL, "33[", which
    // real ANSI sequences (ESC "[") never contain, so coloured output reaches the matchers as is.
    const stripped = line.includes('\u000033[') ? line.replace(/\u000033\[[0-9;]*m?/g, '') : line;
    for (const state of states) {
      const found = state.match(stripped);
      if (!found) continue;
      for (const other of states) if (other !== state) other.reset();
      const annotation = this.registry.toAnnotation(found);
      if (annotation) return annotation;
    }
    return undefined;
  }

  /** Stops receiving the job's matcher changes. */
  close(): void {
    this.registry.detach(this);
  }

  /** @internal A file's matchers were added: each goes in front, replacing one of the same owner. */
  added(configs: readonly MatcherConfig[]): void {
    for (const config of configs) {
      const owner = config.owner.toLowerCase();
      this.states = [new MatcherState(config), ...this.states.filter((s) => s.config.owner.toLowerCase() !== owner)];
    }
  }

  /** @internal */
  removed(owners: ReadonlySet<string>): void {
    this.states = this.states.filter((s) => !owners.has(s.config.owner.toLowerCase()));
  }

  /** The owners in matching order. */
  get owners(): string[] {
    return this.states.map((s) => s.config.owner);
  }
}

const LEVELS: Readonly<Record<string, AnnotationLevel>> = { error: 'error', warning: 'warning', notice: 'notice' };

function digits(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value <= 2147483647 ? value : undefined;
}

export class ProblemMatchers {
  private configs: MatcherConfig[] = [];
  private readonly streams = new Set<ProblemMatcherStream>();
  private current: ProblemMatcherStream;
  private readonly options: ProblemMatchersOptions;

  constructor(options: ProblemMatchersOptions = {}) {
    this.options = options;
    this.current = this.openStream();
  }

  /**
   * Adds the matchers of a problem-matcher file (its text). Throws ProblemMatcherError with the
   * runner's message when the file is invalid; nothing is added then. Returns the owners added.
   */
  addFromFile(json: string, sourceLabel?: string): string[] {
    const added = readMatcherFile(json, sourceLabel);
    if (added.length === 0) return [];
    const owners = new Set(added.map((c) => c.owner.toLowerCase()));
    this.configs = [...added, ...this.configs.filter((c) => !owners.has(c.owner.toLowerCase()))];
    for (const stream of this.streams) stream.added(added);
    return added.map((c) => c.owner);
  }

  /** Removes the matcher with this owner (any case); no-op when there is none. */
  remove(owner: string): void {
    this.removeOwners([owner]);
  }

  /** `remove-matcher` given a file: removes the owners that file names. */
  removeFromFile(json: string, sourceLabel?: string): void {
    this.removeOwners(readMatcherOwners(json, sourceLabel));
  }

  /** The owners in the job's order. */
  get owners(): string[] {
    return this.configs.map((c) => c.owner);
  }

  match(line: string): AnnotationEffect | undefined {
    return this.current.match(line);
  }

  /** A step starts: the default stream starts again from the job's list, with no progress. */
  beginStep(): void {
    this.current.close();
    this.current = this.openStream();
  }

  /** A stream of its own (the runner matches stdout and stderr separately). */
  openStream(): ProblemMatcherStream {
    const stream = new ProblemMatcherStream(this, this.configs);
    this.streams.add(stream);
    return stream;
  }

  /** @internal */
  detach(stream: ProblemMatcherStream): void {
    this.streams.delete(stream);
  }

  /** @internal The runner's ConvertToIssue. */
  toAnnotation(found: Captured): AnnotationEffect | undefined {
    if (!found.message || found.message.trim() === '') return undefined;
    const level = found.severity ? LEVELS[found.severity.toLowerCase()] : 'error';
    if (!level) return undefined;
    const annotation: { -readonly [K in keyof AnnotationEffect]: AnnotationEffect[K] } = {
      kind: 'annotation',
      level,
      message: found.message,
    };
    const line = digits(found.line);
    if (line !== undefined) annotation.line = line;
    const col = digits(found.column);
    if (col !== undefined) annotation.col = col;
    if (found.code && found.code.trim() !== '') annotation.code = found.code.trim();
    const file = this.resolveFile(found.file, found.fromPath);
    if (file !== undefined) annotation.file = file;
    return annotation;
  }

  private resolveFile(file: string | undefined, fromPath: string | undefined): string | undefined {
    if (!file || file.trim() === '') return undefined;
    const platform = this.options.platform ?? process.platform;
    const path = platform === 'win32' ? win32 : posix;
    let resolved = file;
    if (fromPath && fromPath.trim() !== '' && !path.isAbsolute(resolved)) {
      const directory = path.dirname(fromPath);
      if (directory.trim() !== '') resolved = path.join(directory, resolved);
    }
    const workspace = this.options.workspace;
    if (!path.isAbsolute(resolved)) {
      if (!workspace) return path.normalize(resolved).split(path.sep).join('/');
      resolved = path.join(workspace, resolved);
    }
    resolved = path.resolve(resolved);
    if (this.options.resolveFile) return this.options.resolveFile(resolved);
    if (!workspace) return resolved;
    const relative = path.relative(path.resolve(workspace), resolved);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
    return relative.split(path.sep).join('/');
  }

  private removeOwners(owners: readonly string[]): void {
    const set = new Set(owners.map((o) => o.toLowerCase()));
    this.configs = this.configs.filter((c) => !set.has(c.owner.toLowerCase()));
    for (const stream of this.streams) stream.removed(set);
  }
}

/**
 * Runs the container engine's program for the job's container operations (DockerCommandManager's
 * ExecuteDockerCommandAsync): each command logged as `##[command]<program> <args>`, its output
 * collected line by line (and shown, unless asked to keep it quiet), stdin optional (the
 * registry password for `login --password-stdin`). Cancellation kills the engine process.
 */
import { spawn } from 'node:child_process';
import type { ContainerEngine } from './container-engine.js';

export interface EngineOutput {
  /** The exit code; -1 when the program could not start (`error` says why). */
  readonly code: number;
  readonly stdout: readonly string[];
  readonly stderr: readonly string[];
  readonly error?: string;
}

export interface EngineLog {
  write(line: string): void;
}

export interface EngineCallOptions {
  /** Values for `-e NAME` arguments, added to the engine's environment. */
  readonly env?: Readonly<Record<string, string>>;
  readonly input?: string;
  /** Do not echo the output to the log (it is parsed instead). */
  readonly quiet?: boolean;
  readonly signal?: AbortSignal;
}

function splitLines(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => line !== '');
}

export class EngineClient {
  constructor(
    readonly engine: ContainerEngine,
    private readonly base: Readonly<Record<string, string>>,
    private readonly cwd: string,
    private readonly log: EngineLog,
  ) {}

  /** Runs `<engine> <args>`; never throws for a failing command (the code says so). */
  run(args: readonly string[], options: EngineCallOptions = {}): Promise<EngineOutput> {
    this.log.write(`##[command]${this.engine.program} ${args.join(' ')}`);
    return new Promise<EngineOutput>((resolve) => {
      const child = spawn(this.engine.program, [...args], {
        cwd: this.cwd,
        env: { ...this.base, ...options.env },
        stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      let out = '';
      let err = '';
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
      if (options.input !== undefined) child.stdin?.end(options.input);
      let startError: string | undefined;
      child.once('error', (error: NodeJS.ErrnoException) => {
        startError = error.name === 'AbortError' ? 'The operation was canceled.' : error.code === 'ENOENT' ? `'${this.engine.program}' could not be started: no such file` : error.message;
      });
      child.once('close', (code) => {
        const stdout = splitLines(out);
        const stderr = splitLines(err);
        if (options.quiet !== true) for (const line of [...stdout, ...stderr]) this.log.write(line);
        resolve({ code: startError !== undefined ? -1 : (code ?? -1), stdout, stderr, ...(startError === undefined ? {} : { error: startError }) });
      });
    });
  }
}

/** Why an engine that is installed cannot serve containers (its daemon or service is down), or undefined when it can. */
export async function engineUnavailable(client: EngineClient, signal?: AbortSignal): Promise<string | undefined> {
  const answer = await client.run(['version'], { ...(signal === undefined ? {} : { signal }) });
  if (answer.code === 0) return undefined;
  const detail = answer.error ?? ([...answer.stderr].reverse().find((line) => line.trim() !== '') ?? `exit code ${answer.code}`);
  return `${client.engine.name} is installed (${client.engine.program}) but its daemon is not reachable: ${detail}`;
}

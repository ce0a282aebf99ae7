import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliProcess {
  readonly child: ChildProcess;
  /** Everything written so far to stdout and stderr. */
  output(): string;
  /** Resolves when the output matches, rejects after `timeoutMs` showing the output so far. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs one of our CLIs from source (through tsx), as a user would run the built one. */
export function spawnCli(cli: 'svc' | 'svc-runner', args: readonly string[], env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', `cli/${cli}.ts`, ...args], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const check of waiters) check();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    output: () => output,
    exited,
    waitFor(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(output)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${pattern}; output so far:\n${output}`));
        }, timeoutMs);
        waiters.add(check);
        void exited.then(() => setTimeout(check, 10));
        check();
      });
    },
  };
}

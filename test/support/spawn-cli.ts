import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
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

/**
 * How to start one of our CLIs: from the production bundle in SVC_TEST_BUNDLE when it is set
 * (`npm test` builds one for the whole suite: the code users run, and many times faster to start
 * than the sources through tsx), else from source through tsx.
 */
export function cliEntry(cli: 'svc' | 'svc-runner'): string[] {
  const bundle = process.env.SVC_TEST_BUNDLE;
  if (bundle !== undefined && bundle !== '') return [join(resolve(PROJECT_ROOT, bundle), 'cli', `${cli}.js`)];
  return ['--import', 'tsx', `cli/${cli}.ts`];
}

/** Runs one of our CLIs as a user would (the bundle, or the sources: `cliEntry`). */
export function spawnCli(cli: 'svc' | 'svc-runner', args: readonly string[], env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, [...cliEntry(cli), ...args], {
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

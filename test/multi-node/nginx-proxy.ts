/**
 * A real nginx (Debian's, installed by .ci/run) in front of svc nodes, configured by the file the
 * operators' page documents (docs/multi-node/nginx-svc.conf) with only its addresses replaced:
 * what is tested is what is documented. nginx runs in the foreground as a child of the test, with
 * its prefix, temp paths, pid and logs in a private directory.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { userInfo, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DOCUMENTED_CONFIG = fileURLToPath(new URL('../../docs/multi-node/nginx-svc.conf', import.meta.url));

export interface NginxProxy {
  /** The proxy's URL (what SVC_PUBLIC_URL and SVC_URL name). */
  readonly url: string;
  /** nginx's error log so far (for assertion messages). */
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

/** The nginx binary: on the PATH or where Debian puts it; undefined when not installed. */
export function findNginx(): string | undefined {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx']) if (existsSync(candidate)) return candidate;
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  const found = which.stdout.trim();
  return which.status === 0 && found !== '' ? found : undefined;
}

/** The documented server and upstream blocks with the given listening port and node addresses. */
export async function documentedConfig(port: number, nodes: readonly string[]): Promise<string> {
  const text = await readFile(DOCUMENTED_CONFIG, 'utf8');
  const servers = text.match(/^\s*server 10\.0\.0\.\d+:9090 .*$/gm) ?? [];
  if (servers.length !== 2) throw new Error(`${DOCUMENTED_CONFIG} no longer has its two example node lines; update nginx-proxy.ts with it`);
  const [first] = servers;
  const nodeLines = nodes.map((node) => (first ?? '').replace(/10\.0\.0\.\d+:9090/, node)).join('\n');
  const config = text
    .replace(servers.join('\n'), nodeLines)
    .replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${port};`)
    .replace(/^(\s*)server_name .*;$/m, '$1server_name _;');
  if (!config.includes(`listen 127.0.0.1:${port};`)) throw new Error(`${DOCUMENTED_CONFIG} has no 'listen 80;' line to replace`);
  return config;
}

/** Starts nginx on `port` in front of `nodes` (host:port each); resolves once it answers. */
export async function startNginx(nginx: string, port: number, nodes: readonly string[]): Promise<NginxProxy> {
  const prefix = await mkdtemp(join(tmpdir(), 'svc-nginx-'));
  const temp = (name: string) => `${name}_temp_path ${join(prefix, name)};`;
  const main = [
    // As root nginx would switch its workers to `nobody`, who cannot read the private prefix.
    ...(process.getuid?.() === 0 ? [`user ${userInfo().username};`] : []),
    'worker_processes 1;',
    `pid ${join(prefix, 'nginx.pid')};`,
    `error_log ${join(prefix, 'error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    `  access_log ${join(prefix, 'access.log')};`,
    `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
    await documentedConfig(port, nodes),
    '}',
    '',
  ].join('\n');
  const configFile = join(prefix, 'nginx.conf');
  await writeFile(configFile, main);
  const check = spawnSync(nginx, ['-t', '-p', prefix, '-c', configFile, '-e', join(prefix, 'error.log')], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t refused the documented configuration:\n${check.stderr}`);
  const child: ChildProcess = spawn(nginx, ['-p', prefix, '-c', configFile, '-e', join(prefix, 'error.log'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const errorLog = () => readFile(join(prefix, 'error.log'), 'utf8').catch(() => '');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    await rm(prefix, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${stderr}${await errorLog()}`);
    try {
      // A TCP connect, not a request: a request before the nodes listen would mark them failed.
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.destroy();
          resolve();
        });
        socket.once('error', reject);
      });
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`nginx does not answer at ${url}: ${(error as Error).message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { url, errorLog, stop };
}

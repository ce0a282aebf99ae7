import type { Command } from 'commander';
import { credentialBackends } from '../builtins/index.js';

/**
 * `svc cluster-key export` / `svc cluster-key import`: move the cluster key (which seals the keys
 * nodes on one PostgreSQL database share) between nodes through a file or a pipe, never through
 * a command line.
 */
export function addClusterKeyCommand(program: Command): void {
  const group = program.command('cluster-key').description('move the cluster key that seals the shared signing keys between nodes (PostgreSQL)');
  group
    .command('export')
    .description("print this node's cluster key (redirect it: svc cluster-key export > cluster.key)")
    .action(async () => {
      const { exportClusterKey } = await import('../core/kernel/cli/index.js');
      await report('export', async () => {
        if (process.stdout.isTTY) throw new Error('the key would land on the terminal (and its scrollback): redirect it, e.g. `svc cluster-key export > cluster.key`, or pipe it to `ssh other-node svc cluster-key import`');
        process.stdout.write(`${await exportClusterKey(process.env, process.cwd(), credentialBackends)}\n`);
      });
    });
  group
    .command('import')
    .description('store a cluster key read from stdin in the credential store (svc cluster-key import < cluster.key)')
    .option('--replace', 'replace a different cluster key already there')
    .action(async (flags: { replace?: boolean }) => {
      const { importClusterKey } = await import('../core/kernel/cli/index.js');
      await report('import', async () => {
        if (process.stdin.isTTY) throw new Error('give the key on stdin: `svc cluster-key import < cluster.key` (typing it would leave it in the terminal)');
        const chunks: Buffer[] = [];
        for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
        const result = await importClusterKey(process.env, process.cwd(), credentialBackends, Buffer.concat(chunks).toString('utf8'), { replace: flags.replace === true });
        process.stderr.write(
          result.changed
            ? `imported cluster key ${result.id} into ${result.where}; \`svc serve\` on this node now opens the shared keys\n`
            : `${result.where} already holds cluster key ${result.id}; nothing changed\n`,
        );
      });
    });
}

async function report(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    process.stderr.write(`svc cluster-key ${name}: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}

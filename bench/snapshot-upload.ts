// `node --import tsx bench/snapshot-upload.ts [--repo=<git dir or URL>] [--commits=N]`: what `svc run`
// sends of a git repository and how long it takes, against a started host (engine and local-runs,
// SQLite, temp data dir) on this machine. The repository is a clone of `--repo` (e.g. a real
// project already on disk) or, by default, a generated one of N commits (default 500) with tags.
// Prints figures for: the first upload (the whole history), the second of the unchanged tree (the
// server has it), a dirty tree (a commit of the working tree on HEAD), and a new commit after it;
// each `svc run`'s upload code (uploadSnapshot) timed on its own, and beside it the tar a
// non-git upload would send of the same files. Asserts nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { defaultCatalog } from '../builtins/index.js';
import { createHost, createSilentLogger } from '../core/kernel/index.js';
import { findLocalRepository } from '../plugins/local-runs/cli/local-repository.js';
import { packWorkingTree } from '../plugins/local-runs/cli/snapshot/index.js';
import { describeUpload, uploadSnapshot } from '../plugins/local-runs/cli/upload-snapshot.js';
import { git, isolateGitConfig, writeHistory } from '../test/snapshots/support.js';
import { createHostEnv, TEST_SYSTEM_TOKEN } from '../test/support/host-env.js';

isolateGitConfig();
const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);

const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-upload-'));
const dir = join(scratch, 'repo');
const hostEnv = createHostEnv();
hostEnv.writePlugins(['engine', 'local-runs'].map((id) => `[[plugin]]\nid = "${id}"\n`).join('\n'));
const host = await createHost({ env: hostEnv.env, cwd: hostEnv.dir, logger: createSilentLogger(), catalog: defaultCatalog });
try {
  const base = await host.start();
  const source = option('repo');
  if (source === undefined) {
    await git(scratch, ['init', '-q', '-b', 'main', dir]);
    await writeHistory(dir, { commits: Number(option('commits') ?? 500), annotatedEvery: 25, lightweightEvery: 40 });
  } else {
    await git(scratch, ['clone', '-q', '--no-local', source, dir]);
  }
  await git(dir, ['remote', 'remove', 'origin']).catch(() => undefined);
  await git(dir, ['remote', 'add', 'origin', 'https://github.com/bench/upload.git']);
  await git(dir, ['config', 'user.name', 'Bench']);
  await git(dir, ['config', 'user.email', 'bench@example.com']);
  const commits = (await git(dir, ['rev-list', '--count', 'HEAD'])).trim();
  const tags = (await git(dir, ['tag'])).trim().split('\n').filter(Boolean).length;
  const objects = /in-pack: (\d+)/.exec(await git(dir, ['count-objects', '-v']))?.[1] ?? '?';
  console.log(`bench:snapshot-upload on ${process.platform}, node ${process.version}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`repository: ${source ?? 'generated'}: ${commits} commits on HEAD, ${tags} tags, ${objects} objects`);

  const connection = { baseUrl: base, token: TEST_SYSTEM_TOKEN };
  const repository = await findLocalRepository(dir);
  const step = async (label: string) => {
    const started = performance.now();
    const uploaded = await uploadSnapshot(connection, repository);
    const ms = performance.now() - started;
    const bytes = uploaded.kind === 'commit' ? uploaded.bytes : uploaded.pack.bytes;
    console.log(`${label.padEnd(34)} ${ms.toFixed(0).padStart(7)} ms ${String(bytes).padStart(11)} bytes   ${describeUpload(uploaded, repository).replace(/ of \S+ as /, ' as ')}`);
  };
  await step('1. first upload (whole history)');
  await step('2. again, unchanged');
  writeFileSync(join(dir, 'bench-change.txt'), 'uncommitted\n');
  await step('3. dirty (an untracked file)');
  await step('4. dirty again (new commit object)');
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', 'bench change']);
  await step('5. after committing it');

  // What the same files cost as a tar.gz (the path a directory outside git takes).
  const out = new PassThrough();
  let tarBytes = 0;
  out.on('data', (chunk: Buffer) => (tarBytes += chunk.length));
  const started = performance.now();
  const packed = await packWorkingTree(dir, { out });
  console.log(`for comparison, tar.gz of the tree: ${(performance.now() - started).toFixed(0)} ms to pack, ${tarBytes} bytes (${packed.files} files), every run`);
} finally {
  await host.stop();
  hostEnv.cleanup();
  rmSync(scratch, { recursive: true, force: true });
}

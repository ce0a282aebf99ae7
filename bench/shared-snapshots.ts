// `npm run bench:shared-snapshots`: what keeping snapshots in a shared blob store costs, at the
// snapshot store (no HTTP), for a generated history of BENCH_COMMITS (default 500) commits with
// tags: the single-node default (repositories under the data dir only; the code path
// `svc serve` takes with SQLite and blobs under the data dir), then the shared store over a
// shared directory (a second local temp dir: same disk) and over PostgreSQL (SVC_BENCH_POSTGRES_URL,
// else SVC_TEST_POSTGRES_URL, in a schema of its own, dropped afterwards). For each: node A takes
// the whole history (negotiate + pack), then one new commit (thin pack); node B materialises the
// history (its first read), then the new commit; then a read of a commit B holds. Median of
// BENCH_ROUNDS (default 3) rounds; asserts nothing but that B reads what A took.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createSilentLogger, systemClock } from '../core/kernel/index.js';
import { createFilesystemBlobStore } from '../backends/fs-blobs/index.js';
import { createGitSnapshots } from '../backends/git-snapshots/index.js';
import { postgresBlobs, postgresStore } from '../backends/postgres/index.js';
import type { BlobStore, SnapshotStore, SnapshotTag } from '../core/ports/index.js';
import { git, gitInput, isolateGitConfig, streamOf, writeHistory } from '../test/snapshots/support.js';

isolateGitConfig();
const COMMITS = Number(process.env['BENCH_COMMITS'] ?? 500);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const REPO = 'bench/app';
const HOUR = 3_600_000;
const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-shared-snapshots-'));
const temp = (name: string) => join(scratch, `${name}-${randomUUID().slice(0, 8)}`);

const sender = join(scratch, 'sender');
await git(scratch, ['init', '-q', '-b', 'main', sender]);
await writeHistory(sender, { commits: COMMITS, annotatedEvery: 25, lightweightEvery: 40 });
const rev = async (spec: string) => (await git(sender, ['rev-parse', spec])).trim();
const head = await rev('HEAD');
const parent = await rev('HEAD~1');
const tagText = await git(sender, ['for-each-ref', '--format=%(objectname) %(refname:strip=2)', 'refs/tags']);
const tags: SnapshotTag[] = tagText.trim().split('\n').filter(Boolean).map((line) => ({ object: line.slice(0, 40), name: line.slice(41) }));
const parentTags = tags.filter((tag) => !tag.name.endsWith(`.${COMMITS}`) && !tag.name.endsWith(`-${COMMITS}`));
const pack = (revs: string[], thin = false) => gitInput(sender, ['pack-objects', '--revs', '--stdout', '-q', ...(thin ? ['--thin'] : [])], `${revs.join('\n')}\n`);
const wholePack = await pack([parent, ...parentTags.map((tag) => tag.object)]);
const thinPack = await pack([head, ...tags.map((tag) => tag.object), `^${parent}`], true);

async function send(store: SnapshotStore, commit: string, commitTags: SnapshotTag[], data: Buffer): Promise<void> {
  const answer = await store.negotiate(REPO, { commit, tags: commitTags, candidates: [commit, parent], shallow: false, retainUntil: Date.now() + HOUR });
  if (answer.complete) throw new Error('the store had the commit already');
  await store.importPack(REPO, streamOf(data, 64 * 1024), { commit, tags: commitTags, shallow: [], retainUntil: Date.now() + HOUR });
}

const time = async (work: () => Promise<unknown>): Promise<number> => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

interface Figures {
  readonly first: number;
  readonly next: number;
  readonly materialiseFirst: number;
  readonly materialiseNext: number;
  readonly read: number;
}

async function round(shared: BlobStore | undefined): Promise<Figures> {
  const node = (name: string) => createGitSnapshots({ logger: createSilentLogger(), clock: systemClock, dataDir: temp(name), ...(shared === undefined ? {} : { sharedBlobs: shared }) });
  const a = await node('a');
  const b = shared === undefined ? a : await node('b');
  const first = await time(() => send(a, parent, parentTags, wholePack));
  const materialiseFirst = await time(() => b.readFile(REPO, parent, 'file-1.txt'));
  const next = await time(() => send(a, head, tags, thinPack));
  const materialiseNext = await time(() => b.readFile(REPO, head, 'file-1.txt'));
  const read = await time(() => b.readFile(REPO, head, 'file-2.txt'));
  if ((await b.readFile(REPO, head, 'file-0.txt')) === undefined) throw new Error('B does not read what A took');
  return { first, next, materialiseFirst, materialiseNext, read };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? NaN;

async function measure(label: string, open: () => Promise<{ blobs: BlobStore | undefined; close: () => Promise<void> }>): Promise<Figures> {
  const rounds: Figures[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const { blobs, close } = await open();
    try {
      rounds.push(await round(blobs));
    } finally {
      await close();
    }
  }
  const pick = (key: keyof Figures) => median(rounds.map((r) => r[key]));
  const figures: Figures = { first: pick('first'), next: pick('next'), materialiseFirst: pick('materialiseFirst'), materialiseNext: pick('materialiseNext'), read: pick('read') };
  const ms = (value: number) => `${value.toFixed(0).padStart(6)} ms`;
  console.log(
    `${label.padEnd(28)} take history ${ms(figures.first)}  take next ${ms(figures.next)}  | other node: history ${ms(figures.materialiseFirst)}  next ${ms(figures.materialiseNext)}  held read ${ms(figures.read)}`,
  );
  return figures;
}

try {
  console.log(`bench:shared-snapshots on ${process.platform}, node ${process.version}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`history: ${COMMITS} commits, ${tags.length} tags; whole pack ${wholePack.length} bytes, next commit's thin pack ${thinPack.length} bytes; median of ${ROUNDS}`);
  const single = await measure('one node (default)', async () => ({ blobs: undefined, close: async () => undefined }));
  const dir = await measure('shared directory', async () => ({ blobs: createFilesystemBlobStore(temp('blobs'), systemClock), close: async () => undefined }));
  const baseUrl = process.env['SVC_BENCH_POSTGRES_URL'] ?? process.env['SVC_TEST_POSTGRES_URL'];
  let pgFigures: Figures | undefined;
  if (baseUrl === undefined) console.log('PostgreSQL: skipped (set SVC_BENCH_POSTGRES_URL or SVC_TEST_POSTGRES_URL)');
  else {
    pgFigures = await measure('shared PostgreSQL', async () => {
      const schema = `svc_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      const url = new URL(baseUrl);
      url.searchParams.set('schema', schema);
      const logger = createSilentLogger();
      const store = await postgresStore.create({ logger, clock: systemClock, dataDir: tmpdir(), url: url.toString() });
      const blobs = await postgresBlobs.create({ logger, clock: systemClock, dataDir: tmpdir(), url: url.toString(), signingKey: 'bench-signing-key-0123456789abcdef', store });
      return {
        blobs: blobs.store,
        close: async () => {
          await store.database.close();
          const admin = new pg.Client({ connectionString: baseUrl });
          await admin.connect();
          await admin.query(`drop schema if exists "${schema}" cascade`).finally(() => admin.end());
        },
      };
    });
  }
  const ratio = (shared: Figures) => `take history x${(shared.first / single.first).toFixed(2)}, take next x${(shared.next / single.next).toFixed(2)}`;
  console.log(`cost of publishing vs one node: shared directory ${ratio(dir)}${pgFigures === undefined ? '' : `; PostgreSQL ${ratio(pgFigures)}`}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

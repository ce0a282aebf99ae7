// One step of a job, run by job-steps.ts in its own process with the env the runner gives a
// JavaScript action: the real, unmodified toolkit clients read their configuration from it.
//   node toolkit-step.mjs <operation> <args JSON> <result file>
// Writes the operation's result as JSON to the result file; a thrown error fails the process.
import { writeFileSync } from 'node:fs';

const [operation, argsJson, resultFile] = process.argv.slice(2);
const args = JSON.parse(argsJson ?? '{}');

async function artifactClient() {
  const { DefaultArtifactClient } = await import('@actions/artifact');
  return new DefaultArtifactClient();
}

const operations = {
  async 'cache-save'() {
    const cache = await import('@actions/cache');
    return { id: await cache.saveCache(args.paths, args.key), v2: process.env.ACTIONS_CACHE_SERVICE_V2 === 'True' };
  },
  async 'cache-restore'() {
    const cache = await import('@actions/cache');
    return { key: (await cache.restoreCache(args.paths, args.key, args.restoreKeys ?? [])) ?? null };
  },
  async 'artifact-upload'() {
    const client = await artifactClient();
    return client.uploadArtifact(args.name, args.files, args.root, args.options ?? {});
  },
  async 'artifact-list'() {
    const client = await artifactClient();
    return client.listArtifacts(args.options ?? {});
  },
  async 'artifact-download'() {
    const client = await artifactClient();
    const { artifact } = await client.getArtifact(args.name);
    const download = await client.downloadArtifact(artifact.id, { path: args.path, expectedHash: artifact.digest });
    return { artifact, download };
  },
  async 'artifact-delete'() {
    const client = await artifactClient();
    return client.deleteArtifact(args.name);
  },
  async 'id-token'() {
    const core = await import('@actions/core');
    return { token: await core.getIDToken(args.audience) };
  },
};

const run = operations[operation];
if (run === undefined) throw new Error(`unknown operation ${operation}`);
writeFileSync(resultFile, JSON.stringify((await run()) ?? null));

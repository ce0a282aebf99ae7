import { createHash } from 'node:crypto';
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';

/** Before node ids, one random tag per data directory (`<pool dir>/node-tag`). */
const LEGACY_TAG_FILE = 'node-tag';
/** A node that took over the legacy tag keeps it here (`<pool dir>/node-tags/<node id>`). */
const NODE_TAGS_DIR = 'node-tags';
const TAG = /^[0-9a-f]{6}$/;

/**
 * This node's pool tag (6 hex digits): part of every guest's name (`svc-pool-<tag>-…`), so a
 * node tells its own guests' roots and registrations from another node's, also when several
 * nodes share one data directory and one store. It comes from the node id (a hash: fixed
 * length, so no tag is a prefix of another). One exception keeps an upgraded install's running
 * guests adoptable: the tag a data directory had before node ids (`node-tag`) goes, once, to
 * the first node that starts there (an atomic rename into `node-tags/<node id>`); that node
 * keeps it from then on, and any other node sharing the directory uses its hash.
 */
export async function poolNodeTag(rootDir: string, nodeId: string): Promise<string> {
  const own = join(rootDir, NODE_TAGS_DIR, nodeId);
  const kept = await readTag(own);
  if (kept !== undefined) return kept;
  await mkdir(join(rootDir, NODE_TAGS_DIR), { recursive: true, mode: 0o700 });
  const claimed = await rename(join(rootDir, LEGACY_TAG_FILE), own).then(
    () => true,
    () => false,
  );
  if (claimed) {
    const legacy = await readTag(own);
    if (legacy !== undefined) return legacy;
  }
  return nodeIdTag(nodeId);
}

/** The tag a node id gives its guests (when it did not inherit a data directory's legacy tag). */
export function nodeIdTag(nodeId: string): string {
  return createHash('sha256').update(`svc-pool-node:${nodeId}`).digest('hex').slice(0, 6);
}

async function readTag(file: string): Promise<string | undefined> {
  const text = (await readFile(file, 'utf8').catch(() => '')).trim();
  return TAG.test(text) ? text : undefined;
}

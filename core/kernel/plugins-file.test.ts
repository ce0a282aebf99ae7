import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePluginsFile } from './plugins-file.js';

const FILE = '/opt/svc/plugins.toml';

describe('plugins.toml', () => {
  it('reads backends and plugins by id, package and path', () => {
    const file = parsePluginsFile(FILE, '[backends]\nstore = "postgres"\n[[plugin]]\nid = "blobs"\n[[plugin]]\npackage = "@acme/svc-audit"\n[[plugin]]\npath = "./local.js"\n');
    assert.deepEqual(file.backends, { store: 'postgres', notifier: 'auto', blobs: 'auto', snapshots: 'git' });
    assert.deepEqual(file.plugins, [
      { kind: 'builtin', id: 'blobs' },
      { kind: 'package', name: '@acme/svc-audit' },
      { kind: 'path', path: '/opt/svc/local.js' },
    ]);
  });

  it('defaults to the embedded store and no plugins', () => {
    const file = parsePluginsFile(FILE, '');
    assert.deepEqual(file.backends, { store: 'sqlite', notifier: 'auto', blobs: 'auto', snapshots: 'git' });
    assert.deepEqual(file.plugins, []);
  });

  it('names the file and the problem', () => {
    assert.throws(() => parsePluginsFile(FILE, '[backends]\nstore = "mysql"\n'), /\/opt\/svc\/plugins\.toml: backends\.store must be one of sqlite, postgres; got "mysql"/);
    assert.throws(() => parsePluginsFile(FILE, '[backends]\nsnapshots = "s3"\n'), /backends\.snapshots must be one of git; got "s3"/);
    assert.throws(() => parsePluginsFile(FILE, '[[plugin]]\nname = "x"\n'), /plugins\.toml: .*plugin\[0\].*exactly one of id, package or path/);
    assert.throws(() => parsePluginsFile(FILE, '[[plugin]]\nid = "x"\npackage = "y"\n'), /exactly one of id, package or path/);
    assert.throws(() => parsePluginsFile(FILE, '[plugins]\n'), /unknown key 'plugins' \(allowed: backends, plugin\)/);
    assert.throws(() => parsePluginsFile(FILE, '[[plugin]\n'), /plugins\.toml:1:\d+: invalid TOML/);
  });
});

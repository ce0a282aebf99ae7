import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CORPUS_ROOT, loadCorpus } from './load-corpus.js';

const root = mkdtempSync(join(tmpdir(), 'replay-corpus-'));
after(() => rmSync(root, { recursive: true, force: true }));
for (const dir of ['shapes', 'fragments', 'scenarios']) mkdirSync(join(root, dir));
copyFileSync(join(CORPUS_ROOT, 'corpus.yaml'), join(root, 'corpus.yaml'));
copyFileSync(join(CORPUS_ROOT, 'locations.yaml'), join(root, 'locations.yaml'));

const header = (name: string) => `name: ${name}\ntitle: t\ndescription: d\nrunners: ">=2.335.0"\nserver: legacy\nsources: [src/Runner.Listener/Runner.cs]\n`;
const scenario = (name: string, steps: string) => writeFileSync(join(root, 'scenarios', `${name}.yaml`), `${header(name)}steps:\n${steps}`);
writeFileSync(join(root, 'fragments', 'hello.yaml'), 'name: hello\ndescription: d\nrequires: [who]\nsteps:\n  - set: { greeting: "hello {{who}}" }\n');
scenario('good', '  - include: hello\n    with: { who: "{{label}}" }\n  - name: x\n    request: { method: GET, url: "{{origin}}/{{greeting}}" }\n');
scenario('unset-variable', '  - name: x\n    request: { method: GET, url: "{{origin}}/{{sessionId}}" }\n');
scenario('unknown-location', '  - name: x\n    request: { method: GET, base: "{{origin}}", location: nowhere }\n');
scenario('never-awaited', '  - name: x\n    background: poll\n    request: { method: GET, url: "{{origin}}" }\n');
scenario('version-specific', '  - name: x\n    when: { runners: ">=2.336.0" }\n    request: { method: GET, url: "{{origin}}" }\n    capture: { late: body.x }\n  - name: y\n    request: { method: GET, url: "{{origin}}/{{late}}" }\n');
writeFileSync(join(root, 'scenarios', 'broken.yaml'), `${header('broken')}steps:\n  - name: a: b\n`);

describe('corpus loading and integrity checks', () => {
  const corpus = loadCorpus({ root, runnerVersion: '2.336.0', expectedRecordedAgainst: '2.336.0' });
  const byName = new Map(corpus.scenarios.map((s) => [s.definition.name, s]));

  it('expands fragments and keeps a sound definition', () => {
    const good = byName.get('good');
    assert.equal(good?.quarantined, undefined);
    assert.deepEqual(good?.steps.map((step) => Object.keys(step)[0]), ['set', 'set', 'name']);
  });

  it('quarantines definitions with a defect of their own, naming it', () => {
    assert.match(byName.get('unset-variable')?.quarantined ?? '', /reads 'sessionId' before anything sets it/);
    assert.match(byName.get('unknown-location')?.quarantined ?? '', /unknown location 'nowhere'/);
    assert.match(byName.get('never-awaited')?.quarantined ?? '', /background 'poll' is never awaited/);
  });

  it('checks for the runner version replayed (a step for newer runners sets nothing for older ones)', () => {
    assert.equal(byName.get('version-specific')?.quarantined, undefined);
    const older = loadCorpus({ root, runnerVersion: '2.335.0' });
    assert.match(older.scenarios.find((s) => s.definition.name === 'version-specific')?.quarantined ?? '', /reads 'late'/);
  });

  it('a file that does not parse, or a corpus recorded against another version, is a corpus error', () => {
    assert.ok(corpus.errors.some((error) => error.startsWith('broken.yaml')), corpus.errors.join('\n'));
    const mismatch = loadCorpus({ root, runnerVersion: '2.336.0', expectedRecordedAgainst: '2.335.0' });
    assert.ok(mismatch.errors.some((error) => error.includes('replay_corpus_runner_version is 2.335.0')));
  });
});

/**
 * Plugin commands as users meet them: `svc --help` lists the commands of the plugins that
 * plugins.toml enables (built-in and third-party), `svc <command>` runs one, and a broken
 * plugins.toml leaves `svc`'s own commands working, with the reason in the help.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { spawnCli } from '../support/spawn-cli.js';

const AUDIT_PLUGIN = `export const plugin = {
  id: 'audit',
  apiVersion: 1,
  deps: {},
  init() {},
  commands: [
    {
      name: 'audit show',
      description: 'show one audit entry',
      arguments: [{ name: 'ENTRY', description: 'the entry id', required: true }],
      options: [{ flags: '--json', description: 'as JSON' }],
      async run(args, options, context) {
        context.stdout.write(\`entry \${args[0]} json=\${options.json === true}\\n\`);
        return 4;
      },
    },
  ],
};
`;

function pluginsEnv(t: TestContext, toml: string): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-plugins-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'audit.mjs'), AUDIT_PLUGIN);
  writeFileSync(join(dir, 'plugins.toml'), toml);
  return { HOME: dir, SVC_PLUGINS: join(dir, 'plugins.toml') };
}

async function svc(args: readonly string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const cli = spawnCli('svc', args, env);
  const { code } = await cli.exited;
  return { code, output: cli.output() };
}

describe('svc plugin commands', () => {
  it('lists built-in and third-party commands in the help, and runs a third-party one', async (t) => {
    const env = pluginsEnv(t, '[[plugin]]\nid = "engine"\n[[plugin]]\npath = "./audit.mjs"\n[[plugin]]\nid = "local-runs"\n');
    const help = await svc(['--help'], env);
    assert.equal(help.code, 0, help.output);
    const listed = [...help.output.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]);
    assert.deepEqual(listed, ['-V,', '-h,', 'serve', 'plan', 'cluster-key', 'status', 'logs', 'rerun', 'approve', 'audit', 'run', 'help']);

    const sub = await svc(['audit', 'show', '--help'], env);
    assert.match(sub.output, /Usage: svc audit show \[options\] <ENTRY>/);
    assert.match(sub.output, /--json +as JSON/);

    const ran = await svc(['audit', 'show', '17', '--json'], env);
    assert.equal(ran.code, 4, ran.output);
    assert.equal(ran.output, 'entry 17 json=true\n');
  });

  it('keeps svc working when plugins.toml is broken, and says why in the help', async (t) => {
    const env = pluginsEnv(t, '[backends]\nstore = "mysql"\n');
    const help = await svc(['--help'], env);
    assert.equal(help.code, 0, help.output);
    assert.match(help.output, /^ {2}serve/m);
    assert.match(help.output, /\(plugin commands unavailable: .*plugins\.toml: backends\.store must be one of sqlite, postgres; got "mysql"\)/);
    const version = await svc(['--version'], env);
    assert.match(version.output, /^\d+\.\d+\.\d+\n$/);
  });
});

/**
 * The example of README.md: a third-party handler for a new `runs.using` (`bash`: `runs.script`
 * run with bash), registered on the default registry exactly as the built-ins are, reached from
 * a local action and from a composite's step.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fakeJob, type FakeJob } from '../../test/svc-runner/fixtures/actions-fake-context.js';
import { LOCAL_ACTION_USING, actionDefinitionOf } from '../actions/index.js';
import type { ActionHandler, HandlerContext, HandlerResult } from './handler-types.js';
import { createDefaultRegistry, processEnvironment, runProcess } from './index.js';

/** The README's example handler. */
function createBashHandler(): ActionHandler {
  return {
    async run(context: HandlerContext): Promise<HandlerResult> {
      const definition = actionDefinitionOf(context.action);
      if (definition?.kind !== 'custom' || typeof definition.runs['script'] !== 'string') {
        context.log.error("a 'bash' action needs runs.script");
        return { outcome: 'failed' };
      }
      const inputs = Object.fromEntries(Object.entries(context.inputs).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value]));
      const result = await runProcess({
        command: 'bash',
        args: ['-e', join(definition.directory, definition.runs['script'])],
        cwd: context.directories.workspace,
        env: processEnvironment(context, inputs),
        signal: context.signal,
        onStdout: (line) => context.log.processLine(line, 'stdout'),
        onStderr: (line) => context.log.processLine(line, 'stderr'),
      });
      if (result.aborted) return { outcome: 'canceled' };
      return { outcome: result.exitCode === 0 ? 'succeeded' : 'failed' };
    },
  };
}

async function bashAction(job: FakeJob): Promise<void> {
  const dir = join(job.workspace, 'hello');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'action.yml'), 'name: hello\ninputs:\n  who: {}\nruns:\n  using: Bash\n  script: main.sh\n');
  await writeFile(join(dir, 'main.sh'), 'echo "hello $INPUT_WHO from $(basename "$PWD")"\necho "said=yes" >> "$GITHUB_OUTPUT"\n');
}

function local(path: string): HandlerContext['action'] {
  return { using: LOCAL_ACTION_USING, manifest: { kind: 'local', path, origin: { display: path } } };
}

describe('a third-party handler for a new runs.using', () => {
  it('runs a local action whose runs.using it registered', async (t) => {
    const job = await fakeJob(t);
    await bashAction(job);
    const registry = createDefaultRegistry().register('bash', createBashHandler());
    const context = job.context({ action: local('./hello'), inputs: { who: 'mona' } });
    const result = await registry.handlerFor(context.action.using).run(context);
    assert.deepEqual(result, { outcome: 'succeeded' }, job.log.errors.join('\n'));
    assert.ok(job.log.lines.includes('hello mona from widgets'), job.log.lines.join('\n'));
    assert.equal(await job.read('GITHUB_OUTPUT'), 'said=yes\n');
  });

  it('runs it as a composite step too', async (t) => {
    const job = await fakeJob(t);
    await bashAction(job);
    await mkdir(join(job.workspace, 'wrap'));
    await writeFile(
      join(job.workspace, 'wrap', 'action.yml'),
      'name: wrap\noutputs:\n  said:\n    value: ${{ steps.hi.outputs.said }}\nruns:\n  using: composite\n  steps:\n    - id: hi\n      uses: ./hello\n      with:\n        who: octo\n',
    );
    const registry = createDefaultRegistry().register('bash', createBashHandler());
    const context = job.context({ action: local('./wrap') });
    const result = await registry.handlerFor(context.action.using).run(context);
    assert.deepEqual(result, { outcome: 'succeeded', outputs: { said: 'yes' } }, job.log.errors.join('\n'));
    assert.ok(job.log.lines.includes('hello octo from widgets'));
  });

  it('without the registration the step fails saying no handler runs it', async (t) => {
    const job = await fakeJob(t);
    await bashAction(job);
    const registry = createDefaultRegistry();
    const context = job.context({ action: local('./hello') });
    assert.deepEqual(await registry.handlerFor(context.action.using).run(context), { outcome: 'failed' });
    assert.deepEqual(job.log.errors, ["not_implemented: bash actions (no handler for runs.using 'bash' in svc-runner yet)"]);
  });
});

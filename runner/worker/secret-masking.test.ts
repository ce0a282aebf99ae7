/**
 * The masking audit against the official runner: regex mask hints and values merged in one pass,
 * the secret variables the runner leaves unmasked (ACTIONS_STEP_DEBUG, ACTIONS_RUNNER_DEBUG), the
 * worker's own diagnostics, and a multi-line secret with its encoded forms through a job.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LogMasker } from '../reporting/index.js';
import { loadSecrets, runJob } from './job-runner.js';
import { JobCancellation } from './cancellation.js';
import { RecordingReporter, runTestJob, testMessage } from './test-support.js';

describe('svc-runner masking, as the official runner masks', () => {
  it('merges the ranges of regex hints and values before replacing, so no fragment of either is left', () => {
    const masker = new LogMasker();
    masker.add('abc-secret');
    masker.addRegex('secret-tail[0-9]+');
    assert.equal(masker.mask('x abc-secret-tail42 y'), 'x *** y');
    assert.equal(masker.mask('secret-tail7 then abc-secret'), '*** then ***');
    assert.equal(masker.mask('nothing here'), 'nothing here');
    assert.ok(masker.containsSecret('..secret-tail1..'));
  });

  it('does not mask secret ACTIONS_STEP_DEBUG / ACTIONS_RUNNER_DEBUG (any case), as the worker does not; other secrets are, line by line', () => {
    const message = testMessage({
      steps: [{ run: 'true' }],
      variables: {
        ACTIONS_STEP_DEBUG: { value: 'true', isSecret: true },
        actions_runner_debug: { value: 'false', isSecret: true },
        MULTI: { value: '  first-line-secret\r\nsecond-line-secret  \n', isSecret: true },
      },
    });
    const masker = new LogMasker();
    loadSecrets(message, masker);
    assert.equal(masker.mask('debug is true, tracing is false'), 'debug is true, tracing is false');
    assert.equal(masker.mask('a second-line-secret b'), 'a *** b');
    assert.equal(masker.mask('first-line-secret'), '***');
  });

  it("masks the worker's own diagnostics (a report that fails quoting what it sent)", async (t) => {
    const root = await mkdtemp(join(tmpdir(), 'svc-worker-unit-'));
    t.after(() => rm(root, { recursive: true, force: true }));
    const diagnostics: string[] = [];
    class RefusingReporter extends RecordingReporter {
      override async completeJob(): Promise<void> {
        throw new Error('the server refused outputs {"token":"diag-secret-value"}');
      }
    }
    const message = testMessage({ steps: [{ run: 'true' }], variables: { TOKEN: { value: 'diag-secret-value', isSecret: true } } });
    const result = await runJob(message, { runnerRoot: root, runnerName: 'unit-01', runnerVersion: '2.337.0', cancellation: new JobCancellation(), reporter: (masker) => new RefusingReporter(masker), diagnostic: (m) => diagnostics.push(m) });
    assert.equal(result, 'failed');
    assert.deepEqual(diagnostics, ['the server refused outputs {"token":"***"}']);
  });

  it('a multi-line secret: each line, its JSON, URL and base64 forms are masked in log lines and the step summary', async (t) => {
    const secret = 'multi-first\nmulti-second "q"';
    const message = testMessage({
      variables: { MULTI: { value: secret, isSecret: true } },
      contexts: { secrets: null },
      env: { MULTI: secret },
      steps: [
        {
          run: [
            'printf "%s\\n" "$MULTI"',
            'node -e \'console.log("json " + JSON.stringify(process.env.MULTI)); console.log("url " + encodeURIComponent("multi-second \\"q\\""))\'',
            'printf "b64 %s\\n" "$(printf %s "multi-first" | base64)"',
            'printf "user:multi-first" | base64 | sed "s/^/basic /"',
            'echo "summary multi-second \\"q\\"" >> "$GITHUB_STEP_SUMMARY"',
          ].join('\n'),
        },
      ],
    });
    const { reporter } = await runTestJob(t, message);
    const lines = reporter.linesOf(2).filter((line) => !line.startsWith('##[group]') && !line.startsWith('\u001b[36;1m'));
    const text = lines.join('\n');
    for (const fragment of ['multi-first', 'multi-second', Buffer.from('multi-first').toString('base64'), 'multi-second%20']) assert.ok(!text.includes(fragment), `${fragment} in:\n${text}`);
    assert.ok(lines.includes('***') && lines.includes('json "***"') && lines.includes('url ***') && lines.includes('b64 ***'), text);
    const summaries = [...reporter.summaries.values()].join('\n');
    assert.match(summaries, /^summary \*\*\*$/m);
  });
});

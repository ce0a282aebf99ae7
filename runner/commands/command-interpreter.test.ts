import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { CommandInterpreter, SecretMasker, type CommandEffect, type CommandInterpreterOptions } from './index.js';

function interpreter(options: Partial<CommandInterpreterOptions> = {}): { run: CommandInterpreter; masker: SecretMasker } {
  const masker = options.masker ?? new SecretMasker();
  return { run: new CommandInterpreter({ ...options, masker }), masker };
}

const withoutDebug = (effects: readonly CommandEffect[]): CommandEffect[] => effects.filter((e) => e.kind !== 'debug');

test('ordinary lines pass through unchanged and are not handled', () => {
  const { run } = interpreter();
  assert.deepEqual(run.process('hello world'), { output: 'hello world', effects: [], handled: false });
  assert.deepEqual(run.process(''), { output: '', effects: [], handled: false });
  assert.deepEqual(run.process('a :: b'), { output: 'a :: b', effects: [], handled: false });
});

test('unknown commands are ordinary output', () => {
  const { run } = interpreter();
  assert.deepEqual(run.process('::not-a-command::x'), { output: '::not-a-command::x', effects: [], handled: false });
  assert.deepEqual(run.process('##[nope]x'), { output: '##[nope]x', effects: [], handled: false });
});

test("the runner's own markers printed by a step are neutralised", () => {
  const { run } = interpreter();
  assert.equal(run.process('##[start-action foo]').output, '##[\\start-action foo]');
  assert.equal(run.process('x ##[end-action]').output, 'x ##[\\end-action]');
});

test('set-output: the output, the deprecation warning GitHub shows, hidden while echo is off', () => {
  const { run } = interpreter();
  const result = run.process('::set-output name=result::a%0Ab');
  assert.equal(result.output, undefined);
  assert.equal(result.handled, true);
  assert.deepEqual(result.effects, [
    {
      kind: 'warning-message',
      message:
        'The `set-output` command is deprecated and will be disabled soon. Please upgrade to using Environment Files. For more information see: https://github.blog/changelog/2022-10-11-github-actions-deprecating-save-state-and-set-output-commands/',
    },
    { kind: 'set-output', name: 'result', value: 'a\nb' },
  ]);
  const quiet = interpreter({ deprecateStepOutputCommands: false }).run.process('::set-output name=x::1');
  assert.deepEqual(quiet.effects, [{ kind: 'set-output', name: 'x', value: '1' }]);
});

test('set-output without a name fails the step with the runner messages', () => {
  const { run } = interpreter({ deprecateStepOutputCommands: false });
  const line = '::set-output::v';
  assert.deepEqual(run.process(line).effects, [
    { kind: 'error-message', message: `Unable to process command '${line}' successfully.` },
    { kind: 'error-message', message: "Required field 'name' is missing in ##[set-output] command." },
    { kind: 'command-failed', command: 'set-output' },
  ]);
});

test('save-state records the state (and the deprecation warning)', () => {
  const { run } = interpreter();
  const effects = withoutDebug(run.process('::save-state name=pid::123').effects);
  assert.equal(effects[0]?.kind, 'warning-message');
  assert.deepEqual(effects[1], { kind: 'save-state', name: 'pid', value: '123' });
  const failing = withoutDebug(run.process('::save-state::1').effects);
  assert.equal(failing[0]?.kind, 'warning-message');
  assert.deepEqual(failing.at(-1), { kind: 'command-failed', command: 'save-state' });
});

test('set-env and add-path are refused with GitHub error unless unsecure commands are allowed', () => {
  const { run } = interpreter();
  const line = '::set-env name=FOO::bar';
  const refused = run.process(line);
  assert.equal(refused.handled, true);
  assert.deepEqual(refused.effects, [
    { kind: 'error-message', message: `Unable to process command '${line}' successfully.` },
    {
      kind: 'error-message',
      message:
        'The `set-env` command is disabled. Please upgrade to using Environment Files or opt into unsecure command execution by setting the `ACTIONS_ALLOW_UNSECURE_COMMANDS` environment variable to `true`. For more information see: https://github.blog/changelog/2020-10-01-github-actions-deprecating-set-env-and-add-path-commands/',
    },
    { kind: 'command-failed', command: 'set-env' },
  ]);
  const path = run.process('::add-path::/opt/bin');
  assert.match((path.effects[1] as { message: string }).message, /^The `add-path` command is disabled\./);

  const allowed = interpreter({ allowUnsecureCommands: true }).run;
  assert.deepEqual(withoutDebug(allowed.process(line).effects), [{ kind: 'set-env', name: 'FOO', value: 'bar' }]);
  assert.deepEqual(allowed.process('::add-path::/opt/bin').effects, [{ kind: 'add-path', path: '/opt/bin' }]);
  assert.deepEqual(allowed.process('::add-path::').effects.slice(1), [
    { kind: 'error-message', message: "Value cannot be null. (Parameter 'path')" },
    { kind: 'command-failed', command: 'add-path' },
  ]);
  assert.deepEqual(allowed.process('::set-env name=node_options::--x').effects, [
    { kind: 'error-message', message: "Can't update NODE_OPTIONS environment variable using ::set-env:: command." },
  ]);
  assert.equal(allowed.process('::set-env::x').effects[1]?.kind, 'error-message');
});

test('annotations carry every property; the line is never echoed', () => {
  const { run } = interpreter({ echo: true });
  const result = run.process('::error file=app.js,line=1,col=5,endLine=1,endColumn=7,title=Bad%3A thing::Missing semicolon%0Anext');
  assert.equal(result.output, undefined);
  assert.deepEqual(result.effects, [
    { kind: 'annotation', level: 'error', message: 'Missing semicolon\nnext', file: 'app.js', line: 1, col: 5, endLine: 1, endColumn: 7, title: 'Bad: thing' },
  ]);
  assert.deepEqual(run.process('::warning::careful').effects, [{ kind: 'annotation', level: 'warning', message: 'careful' }]);
  assert.deepEqual(run.process('::notice title=T::fyi').effects, [{ kind: 'annotation', level: 'notice', message: 'fyi', title: 'T' }]);
  assert.deepEqual(run.process('##[error]legacy').effects, [{ kind: 'annotation', level: 'error', message: 'legacy' }]);
});

test('annotation lines and columns are repaired as the runner repairs them', () => {
  const { run } = interpreter();
  const annotation = (line: string): CommandEffect | undefined => run.process(line).effects.find((e) => e.kind === 'annotation');
  assert.deepEqual(annotation('::warning line=1,endLine=2,col=1,endColumn=2::m'), { kind: 'annotation', level: 'warning', message: 'm', line: 1, endLine: 2 });
  assert.deepEqual(annotation('::warning col=1,endColumn=2::m'), { kind: 'annotation', level: 'warning', message: 'm' });
  assert.deepEqual(annotation('::warning endLine=4::m'), { kind: 'annotation', level: 'warning', message: 'm', line: 4, endLine: 4 });
  assert.deepEqual(annotation('::warning line=1,endColumn=2::m'), { kind: 'annotation', level: 'warning', message: 'm', line: 1, col: 2, endColumn: 2 });
  assert.deepEqual(annotation('::warning line=4,endLine=3::m'), { kind: 'annotation', level: 'warning', message: 'm' });
  assert.deepEqual(annotation('::warning line=1,endLine=1,col=3,endColumn=2::m'), { kind: 'annotation', level: 'warning', message: 'm', line: 1, endLine: 1 });
  assert.deepEqual(annotation('::warning line=x,col=2::m'), { kind: 'annotation', level: 'warning', message: 'm' });
  const debug = run.process('::warning line=4,endLine=3::m').effects.filter((e) => e.kind === 'debug');
  assert.deepEqual(debug, [{ kind: 'debug', message: "Invalid warning command value. 'endLine' cannot be less than 'line'." }]);
});

test('annotation files inside the workspace become relative with /', () => {
  const { run } = interpreter({ workspace: '/home/runner/work/r/r', platform: 'linux' });
  assert.deepEqual(run.process('::error file=/home/runner/work/r/r/src/a.ts::x').effects, [
    { kind: 'annotation', level: 'error', message: 'x', file: 'src/a.ts' },
  ]);
  assert.deepEqual(run.process('::error file=/elsewhere/a.ts::x').effects[0], { kind: 'annotation', level: 'error', message: 'x', file: '/elsewhere/a.ts' });
  const windows = interpreter({ workspace: 'D:\\a\\r\\r', platform: 'win32' }).run;
  assert.equal((windows.process('::error file=d:/a/r/r/src/b.ts::x').effects[0] as { file?: string }).file, 'src/b.ts');
});

test('notice is ordinary output when the server lacks enhanced annotations', () => {
  const { run } = interpreter({ enhancedAnnotations: false });
  const result = run.process('::notice::x');
  assert.equal(result.handled, false);
  assert.equal(result.output, '::notice::x');
});

test('debug, group and endgroup', () => {
  const { run } = interpreter();
  assert.deepEqual(run.process('::debug::details%25').effects, [{ kind: 'debug', message: 'details%' }]);
  assert.deepEqual(run.process('::group::My title').effects, [{ kind: 'group', title: 'My title' }]);
  assert.deepEqual(run.process('::endgroup::').effects, [{ kind: 'endgroup' }]);
  assert.equal(run.process('::group::t').output, undefined);
});

test('echo: command lines are shown only while echo is on; the echo line itself follows the old state', () => {
  const { run } = interpreter();
  assert.equal(run.echo, false);
  const on = run.process('::echo::on');
  assert.equal(on.output, undefined);
  assert.deepEqual(withoutDebug(on.effects), [{ kind: 'echo', on: true }]);
  assert.equal(run.echo, true);
  assert.equal(run.process('::group::g').output, '::group::g');
  assert.equal(run.process('::debug::d').output, undefined, 'debug is never echoed');
  const off = run.process('::echo::OFF  ');
  assert.equal(off.output, '::echo::OFF  ');
  assert.equal(run.echo, false);
  assert.equal(run.process('::group::g').output, undefined);
  assert.equal(interpreter({ echo: true }).run.process('::endgroup::').output, '::endgroup::');
});

test('echo with an invalid or empty value fails the step and keeps the state', () => {
  const { run } = interpreter();
  assert.deepEqual(run.process('::echo::maybe').effects.slice(1), [
    { kind: 'error-message', message: "Invalid echo command value. Possible values can be: 'on', 'off'. Current value is: 'maybe'." },
    { kind: 'command-failed', command: 'echo' },
  ]);
  assert.equal(run.process('::echo::').effects[1]?.kind, 'error-message');
  assert.equal(run.echo, false);
});

test('add-mask masks the value from then on; the line shows masked only with echo on', () => {
  const { run, masker } = interpreter();
  assert.equal(masker.mask('token s3cr3t-value here'), 'token s3cr3t-value here');
  const result = run.process('::add-mask::s3cr3t-value');
  assert.equal(result.output, undefined);
  assert.deepEqual(result.effects, [{ kind: 'add-mask', value: 's3cr3t-value' }]);
  assert.equal(masker.mask('token s3cr3t-value here'), 'token *** here');
  run.echo = true;
  assert.equal(run.process('::add-mask::other-secret').output, '::add-mask::***');
  assert.equal(masker.mask('other-secret'), '***');
  assert.deepEqual(run.process('::add-mask::   ').effects, [
    { kind: 'warning-message', message: "Can't add secret mask for empty string in ##[add-mask] command." },
  ]);
});

test('add-mask with an escaped multi-line value masks each line', () => {
  const { run, masker } = interpreter();
  run.process('::add-mask::abc%0Ddef%0Aghi%0D%0Ajkl');
  for (const part of ['abc', 'def', 'ghi', 'jkl']) assert.equal(masker.mask(part), '***');
  assert.equal(masker.mask('abc\rdef\nghi\r\njkl'), '***');
  assert.equal(masker.mask('   '), '   ');
});

test('stop-commands pauses processing until its token, and the token is masked', () => {
  const { run, masker } = interpreter({ allowUnsecureCommands: true });
  const stop = run.process('::stop-commands::pause-token-1');
  assert.equal(stop.output, '::stop-commands::pause-token-1');
  assert.equal(run.stopped, true);
  assert.equal(masker.mask('pause-token-1'), '***');
  const ignored = run.process('::set-env name=A::b');
  assert.equal(ignored.handled, false);
  assert.equal(ignored.output, '::set-env name=A::b');
  assert.equal(ignored.effects.some((e) => e.kind === 'set-env'), false);
  assert.equal(run.process('::warning::w').output, '::warning::w');
  const resume = run.process('::PAUSE-TOKEN-1::');
  assert.equal(resume.handled, true);
  assert.equal(resume.output, '::PAUSE-TOKEN-1::');
  assert.equal(run.stopped, false);
  assert.deepEqual(withoutDebug(run.process('::set-env name=A::b').effects), [{ kind: 'set-env', name: 'A', value: 'b' }]);
  assert.equal(run.process('::pause-token-1::').handled, false, 'the token is no command once resumed');
});

test('a short stop token is not masked; the legacy form stops and resumes too', () => {
  const { run, masker } = interpreter();
  run.process('##[stop-commands]abc');
  assert.equal(masker.mask('abc'), 'abc');
  assert.equal(run.process('::debug::x').handled, false);
  assert.equal(run.process('##[abc]').handled, true);
  assert.equal(run.process('::debug::x').handled, true);
});

test('a stop token that is empty, pause-logging or a command is refused unless allowed', () => {
  for (const token of ['', 'pause-logging', 'set-env', 'Stop-Commands']) {
    const { run } = interpreter();
    const result = run.process(`::stop-commands::${token}`);
    assert.equal(run.stopped, false, token);
    assert.match((result.effects[0] as { message: string }).message, /^You cannot use a endToken that is an empty string/);
    assert.deepEqual(result.effects[1], { kind: 'command-failed', command: 'stop-commands' });
  }
  const { run } = interpreter({ allowUnsecureStopCommandTokens: true });
  run.process('::stop-commands::warning');
  assert.equal(run.stopped, true);
  assert.equal(run.process('::warning::resume').handled, true);
  assert.equal(run.stopped, false);
  assert.equal(run.process('::warning::x').handled, false, 'the runner unregisters the token, even a command name');
});

test('add-matcher and remove-matcher', () => {
  const { run } = interpreter();
  assert.deepEqual(run.process('::add-matcher::.github/eslint.json').effects, [{ kind: 'add-matcher', file: '.github/eslint.json' }]);
  assert.deepEqual(run.process('::add-matcher::').effects, [{ kind: 'warning-message', message: 'File path must be specified.' }]);
  assert.deepEqual(run.process('::remove-matcher owner=eslint::').effects, [{ kind: 'remove-matcher', owner: 'eslint' }]);
  assert.deepEqual(run.process('::remove-matcher::m.json').effects, [{ kind: 'remove-matcher-file', file: 'm.json' }]);
  assert.equal((run.process('::remove-matcher owner=a::b.json').effects[0] as { message: string }).message.startsWith('Either specify an owner'), true);
  assert.equal((run.process('::remove-matcher::').effects[0] as { message: string }).message.startsWith('Either an owner name'), true);
});

test('command names are matched in any case', () => {
  const { run } = interpreter();
  assert.deepEqual(run.process('::Set-Output Name=x::1').effects.at(-1), { kind: 'set-output', name: 'x', value: '1' });
  assert.deepEqual(run.process('::ERROR::boom').effects, [{ kind: 'annotation', level: 'error', message: 'boom' }]);
});

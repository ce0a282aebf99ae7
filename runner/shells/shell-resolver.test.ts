import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { INVALID_SHELL_MESSAGE, ShellError, commandLine, resolveShell, type ResolveShellInput } from './index.js';

const LINUX_PROGRAMS: Record<string, string> = { bash: '/usr/bin/bash', sh: '/usr/bin/sh', pwsh: '/usr/bin/pwsh', python: '/usr/bin/python', perl: '/usr/bin/perl' };
const WINDOWS_PROGRAMS: Record<string, string> = {
  pwsh: 'C:\\Program Files\\PowerShell\\7\\pwsh.EXE',
  powershell: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.EXE',
  cmd: 'C:\\Windows\\system32\\cmd.EXE',
  bash: 'C:\\Program Files\\Git\\bin\\bash.EXE',
};

function on(programs: Record<string, string>): ResolveShellInput['which'] {
  return (name) => programs[name];
}

function linux(shell: string | undefined, extra: Partial<ResolveShellInput> = {}): ReturnType<typeof resolveShell> {
  return resolveShell({ shell, defaultShell: undefined, platform: 'linux', which: on(LINUX_PROGRAMS), ...extra });
}

function line(shell: ReturnType<typeof resolveShell>, script = '/tmp/_temp/abc.sh'): string {
  const cl = commandLine(shell, script);
  return [cl.file, ...cl.args].join(' | ');
}

test('bash runs as bash --noprofile --norc -e -o pipefail {0} (the runner spells -eo as -e -o)', () => {
  const shell = linux('bash');
  assert.equal(shell.display, 'shell: /usr/bin/bash --noprofile --norc -e -o pipefail {0}');
  assert.deepEqual(shell.args, ['--noprofile', '--norc', '-e', '-o', 'pipefail', '{0}']);
  assert.equal(shell.scriptExtension, '.sh');
  assert.equal(line(shell), '/usr/bin/bash | --noprofile | --norc | -e | -o | pipefail | /tmp/_temp/abc.sh');
});

test('no shell on Linux/macOS: bash -e {0} when bash is on PATH, else sh -e {0}', () => {
  const withBash = linux(undefined);
  assert.equal(withBash.name, 'sh');
  assert.equal(withBash.display, 'shell: /usr/bin/bash -e {0}');
  assert.equal(line(withBash), '/usr/bin/bash | -e | /tmp/_temp/abc.sh');
  const noBash = resolveShell({ shell: undefined, defaultShell: undefined, platform: 'darwin', which: on({ sh: '/bin/sh' }) });
  assert.equal(noBash.display, 'shell: /bin/sh -e {0}');
  assert.throws(() => resolveShell({ shell: '', defaultShell: undefined, platform: 'linux', which: () => undefined }), /^ShellError: sh: command not found$/);
});

test("the job's defaults.run.shell applies when the step has none", () => {
  assert.equal(linux(undefined, { defaultShell: 'bash' }).display, 'shell: /usr/bin/bash --noprofile --norc -e -o pipefail {0}');
  assert.equal(linux('sh', { defaultShell: 'bash' }).display, 'shell: /usr/bin/sh -e {0}');
});

test('sh, python and pwsh have their built-in lines and extensions', () => {
  assert.equal(linux('sh').display, 'shell: /usr/bin/sh -e {0}');
  const python = linux('python');
  assert.equal(python.display, 'shell: /usr/bin/python {0}');
  assert.equal(python.scriptExtension, '.py');
  assert.equal(line(python, '/t/x.py'), '/usr/bin/python | /t/x.py');
  const pwsh = linux('pwsh');
  assert.equal(pwsh.display, `shell: /usr/bin/pwsh -command ". '{0}'"`);
  assert.equal(pwsh.scriptExtension, '.ps1');
  assert.deepEqual(commandLine(pwsh, '/t/x.ps1').args, ['-command', ". '/t/x.ps1'"]);
});

test('pwsh and powershell scripts get the error-preference prelude and exit-code epilogue', () => {
  const script = linux('pwsh').prepareScript('Write-Host hi');
  assert.equal(script, "$ErrorActionPreference = 'stop'\nWrite-Host hi\nif ((Test-Path -LiteralPath variable:\\LASTEXITCODE)) { exit $LASTEXITCODE }");
  assert.equal(linux('bash').prepareScript('echo hi\n'), 'echo hi\n', 'other shells get the script as written');
});

test('Windows: pwsh by default, else powershell; cmd with @echo off; CRLF scripts; verbatim command line', () => {
  const windows = (shell: string | undefined, programs = WINDOWS_PROGRAMS): ReturnType<typeof resolveShell> =>
    resolveShell({ shell, defaultShell: undefined, platform: 'win32', which: on(programs) });
  const pwsh = windows(undefined);
  assert.equal(pwsh.name, 'pwsh');
  assert.equal(pwsh.display, `shell: C:\\Program Files\\PowerShell\\7\\pwsh.EXE -command ". '{0}'"`);
  assert.equal(pwsh.prepareScript('a\nb'), "$ErrorActionPreference = 'stop'\r\na\r\nb\r\nif ((Test-Path -LiteralPath variable:\\LASTEXITCODE)) { exit $LASTEXITCODE }");
  const { pwsh: _pwsh, ...noPwsh } = WINDOWS_PROGRAMS;
  assert.equal(windows(undefined, noPwsh).name, 'powershell');
  assert.throws(() => windows(undefined, {}), /powershell: command not found/);
  const cmd = windows('cmd');
  assert.equal(cmd.display, 'shell: C:\\Windows\\system32\\cmd.EXE /D /E:ON /V:OFF /S /C "CALL "{0}""');
  assert.equal(cmd.scriptExtension, '.cmd');
  assert.equal(cmd.prepareScript('echo 1\r\necho 2\n'), '@echo off\r\necho 1\r\necho 2\r\n');
  const cl = commandLine(cmd, 'D:\\a\\_temp\\x.cmd');
  assert.deepEqual(cl, {
    file: 'C:\\Windows\\system32\\cmd.EXE',
    args: ['/D /E:ON /V:OFF /S /C "CALL "D:\\a\\_temp\\x.cmd""'],
    argumentString: '/D /E:ON /V:OFF /S /C "CALL "D:\\a\\_temp\\x.cmd""',
    windowsVerbatimArguments: true,
    argv0: '"C:\\Windows\\system32\\cmd.EXE"',
  });
  assert.equal(windows('bash').prepareScript('x\n'), 'x\r\n');
});

test('custom templates: COMMAND split at the first space, arguments split as .NET splits them', () => {
  const perl = linux('perl {0}');
  assert.equal(perl.scriptExtension, '');
  assert.equal(line(perl, '/t/x'), '/usr/bin/perl | /t/x');
  const custom = linux('bash  -c "source {0} && echo \\"done\\""');
  assert.equal(custom.argFormat, '-c "source {0} && echo \\"done\\""');
  assert.equal(custom.scriptExtension, '.sh', 'the extension follows the command name');
  assert.deepEqual(commandLine(custom, '/t/my "quoted" dir/x.sh').args, ['-c', 'source /t/my "quoted" dir/x.sh && echo "done"']);
  const pwshCustom = linux(`pwsh -noninteractive -command "& '{0}'"`);
  assert.match(pwshCustom.prepareScript('x'), /^\$ErrorActionPreference = 'stop'\n/, 'built-in name: its script fix-ups apply');
  assert.deepEqual(commandLine(pwshCustom, '/t/x.ps1').args, ['-noninteractive', '-command', "& '/t/x.ps1'"]);
  assert.equal(commandLine(linux('bash {0} {{literal}}'), '/t/x').argumentString, '/t/x {literal}');
});

test('a shell not on PATH is an error naming it; a container step runs the shell by name', () => {
  assert.throws(
    () => linux('zsh {0}'),
    (error: unknown) => error instanceof ShellError && error.code === 'shell-not-found' && error.command === 'zsh' && error.message === 'zsh: command not found',
  );
  assert.throws(() => linux('cmd'), /cmd: command not found/);
  const inContainer = resolveShell({ shell: 'zsh -e {0}', defaultShell: undefined, platform: 'linux', which: () => undefined, inContainer: true });
  assert.equal(inContainer.command, 'zsh');
  assert.equal(inContainer.display, 'shell: zsh -e {0}');
  const containerDefault = linux(undefined, { inContainer: true });
  assert.equal(containerDefault.command, 'sh', 'the default in a container is sh, even where the host has bash');
  assert.equal(containerDefault.display, 'shell: sh -e {0}');
});

test('a template without {0} or with stray braces is refused', () => {
  for (const shell of ['perl', 'perl -w', ' bash {0}']) {
    assert.throws(() => linux(shell), (error: unknown) => error instanceof ShellError && error.code === 'invalid-shell' && error.message === INVALID_SHELL_MESSAGE, shell);
  }
  assert.throws(() => linux('bash -c "{ . {0}; }"'), /Input string was not in a correct format/);
  assert.throws(() => linux('bash {1} {0}'), /Index \(zero based\)/);
});

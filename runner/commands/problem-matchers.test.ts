import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { ProblemMatcherError, ProblemMatchers } from './index.js';

const ESLINT_STYLISH = JSON.stringify({
  problemMatcher: [
    {
      owner: 'eslint-stylish',
      pattern: [
        { regexp: '^([^\\s].*)$', file: 1 },
        { regexp: '^\\s+(\\d+):(\\d+)\\s+(error|warning|info)\\s+(.*)\\s\\s+(.*)$', line: 1, column: 2, severity: 3, message: 4, code: 5, loop: true },
      ],
    },
  ],
});

// actions/setup-node's tsc matcher: `location` is a VS Code field the runner ignores.
const TSC = `{
  // comments and trailing commas are accepted, as Newtonsoft accepts them
  "problemMatcher": [
    {
      "owner": "tsc",
      "pattern": [
        {
          "regexp": "^([^\\\\s].*)\\\\((\\\\d+),(\\\\d+)\\\\):\\\\s+(error|warning|info)\\\\s+(TS\\\\d+)\\\\s*:\\\\s*(.*)$",
          "file": 1, "line": 2, "column": 3, "severity": 4, "code": 5, "message": 6, "location": 2,
        },
      ],
    },
  ],
}`;

test('the eslint stylish multi-line matcher with loop reports each problem under the file line', () => {
  const matchers = new ProblemMatchers();
  assert.deepEqual(matchers.addFromFile(ESLINT_STYLISH), ['eslint-stylish']);
  const lines = [
    'test.js',
    '  1:0   error  Missing "use strict" statement                 strict',
    '  5:10  error  \'addOne\' is defined but never used             no-unused-vars',
    '  7:1   info   not a supported severity                       whatever',
    '✖ 2 problems (2 errors, 0 warnings)',
  ];
  const found = lines.map((l) => matchers.match(l));
  assert.equal(found[0], undefined, 'the file line alone is no problem');
  // The greedy `(.*)\s\s+` keeps all but two of the padding spaces in the message, in .NET too.
  assert.deepEqual(found[1], { kind: 'annotation', level: 'error', message: `Missing "use strict" statement${' '.repeat(15)}`, line: 1, col: 0, code: 'strict', file: 'test.js' });
  assert.deepEqual(found[2], { kind: 'annotation', level: 'error', message: `'addOne' is defined but never used${' '.repeat(11)}`, line: 5, col: 10, code: 'no-unused-vars', file: 'test.js' });
  assert.equal(found[3], undefined, 'info is not a severity the runner reports');
  assert.equal(found[4], undefined);
  // Any unindented line starts a new "file", the summary too (as on GitHub); an empty line ends it.
  assert.equal(matchers.match('  9:9   error  after the summary  rule')?.file, '✖ 2 problems (2 errors, 0 warnings)');
  assert.equal(matchers.match(''), undefined);
  assert.equal(matchers.match('  9:9   error  orphan  rule'), undefined);
});

test('a multi-line match breaks when the next line does not match', () => {
  const matchers = new ProblemMatchers();
  matchers.addFromFile(
    JSON.stringify({
      problemMatcher: [
        {
          owner: 'two-line',
          pattern: [
            { regexp: '^FILE (.+)$', file: 1 },
            { regexp: '^ERR (.+)$', message: 1 },
          ],
        },
      ],
    }),
  );
  assert.equal(matchers.match('FILE a.c'), undefined);
  assert.deepEqual(matchers.match('ERR boom'), { kind: 'annotation', level: 'error', message: 'boom', file: 'a.c' });
  assert.equal(matchers.match('ERR again'), undefined, 'without loop the match is consumed');
  matchers.match('FILE b.c');
  matchers.match('something else');
  assert.equal(matchers.match('ERR late'), undefined);
});

test('the tsc single-line matcher, read with comments and trailing commas', () => {
  const matchers = new ProblemMatchers({ workspace: '/work/repo', platform: 'linux' });
  matchers.addFromFile(TSC, 'tsc.json');
  assert.deepEqual(matchers.match("src/index.ts(12,5): error TS2304: Cannot find name 'foo'."), {
    kind: 'annotation',
    level: 'error',
    message: "Cannot find name 'foo'.",
    line: 12,
    col: 5,
    code: 'TS2304',
    file: 'src/index.ts',
  });
  assert.equal(matchers.match('plain output'), undefined);
});

test('files are rooted with fromPath, then the workspace; outside the workspace they are dropped', () => {
  const msbuild = {
    problemMatcher: [
      {
        owner: 'msbuild',
        pattern: [
          {
            regexp: '^\\s*([^:]+)\\((\\d+),(\\d+)\\): (error|warning) ([^:]+): (.*) \\[(.+)\\]$',
            file: 1, line: 2, column: 3, severity: 4, code: 5, message: 6, fromPath: 7,
          },
        ],
      },
    ],
  };
  const matchers = new ProblemMatchers({ workspace: '/ws', platform: 'linux' });
  matchers.addFromFile(JSON.stringify(msbuild));
  const found = matchers.match("  Helpers/MyHelper.cs(16,30): error CS1002: ; expected [/ws/ConsoleApp1/ClassLibrary1/ClassLibrary1.csproj]");
  assert.deepEqual(found, {
    kind: 'annotation', level: 'error', message: '; expected', line: 16, col: 30, code: 'CS1002',
    file: 'ConsoleApp1/ClassLibrary1/Helpers/MyHelper.cs',
  });
  const outside = matchers.match('  a.cs(1,1): warning W1: m [/other/p.csproj]');
  assert.equal(outside?.file, undefined);
  assert.equal(outside?.level, 'warning');
  const checked = new ProblemMatchers({ workspace: '/ws', platform: 'linux', resolveFile: (p) => (p === '/ws/ok.cs' ? 'ok.cs' : undefined) });
  checked.addFromFile(JSON.stringify(msbuild));
  assert.equal(checked.match('ok.cs(1,1): error E1: m [/ws/x.csproj]')?.file, 'ok.cs', 'rooted at the fromPath directory');
  assert.equal(checked.match('ok.cs(1,1): error E1: m [/ws/sub/x.csproj]')?.file, undefined, '/ws/sub/ok.cs is refused');
  assert.equal(checked.match('/ws/ok.cs(1,1): error E1: m [/ws/x.csproj]')?.file, 'ok.cs');
});

test('default severity and default fromPath apply when the match has none', () => {
  const matchers = new ProblemMatchers({ workspace: '/ws', platform: 'linux' });
  matchers.addFromFile(
    JSON.stringify({
      problemMatcher: [
        { owner: 'flake8', pattern: [{ regexp: '^(.+):(\\d+):(\\d+): ([EF]\\d+) (.+)$', file: 1, line: 2, column: 3, code: 4, message: 5 }] },
        { owner: 'flake8-warnings', severity: 'warning', pattern: [{ regexp: '^(.+):(\\d+):(\\d+): (W\\d+) (.+)$', file: 1, line: 2, column: 3, code: 4, message: 5 }] },
        { owner: 'csc-minimal', fromPath: 'Lib/Lib.csproj', pattern: [{ regexp: '^(.+)\\((\\d+),(\\d+)\\): (\\w+) (CS\\d+): (.+)$', file: 1, line: 2, column: 3, severity: 4, code: 5, message: 6 }] },
      ],
    }),
  );
  assert.equal(matchers.match('./bootcamp/settings.py:156:80: E501 line too long (94 > 79 characters)')?.level, 'error');
  const warning = matchers.match('./bootcamp/settings.py:170:1: W391 blank line at end of file');
  assert.equal(warning?.level, 'warning');
  assert.equal(warning?.file, 'bootcamp/settings.py');
  assert.equal(matchers.match("Class.cs(16,24): warning CS0612: 'Name' is obsolete")?.file, 'Lib/Class.cs');
});

test('line and column must be plain digits; empty messages and unknown severities give nothing', () => {
  const matchers = new ProblemMatchers();
  matchers.addFromFile(
    JSON.stringify({ problemMatcher: [{ owner: 'm', pattern: [{ regexp: '^(\\S*) (\\S*) (\\S*) (.*)$', severity: 1, line: 2, column: 3, message: 4 }] }] }),
  );
  assert.deepEqual(matchers.match('WARNING +3 x msg'), { kind: 'annotation', level: 'warning', message: 'msg' });
  assert.deepEqual(matchers.match(' 7 8 msg'), { kind: 'annotation', level: 'error', message: 'msg', line: 7, col: 8 });
  assert.equal(matchers.match('error 1 1  '), undefined);
  assert.equal(matchers.match('fatal 1 1 msg'), undefined);
});

test('the newest file comes first; re-adding an owner replaces it; remove takes any case', () => {
  const matchers = new ProblemMatchers();
  const file = (owner: string, regexp: string): string => JSON.stringify({ problemMatcher: [{ owner, pattern: [{ regexp, message: 1 }] }] });
  matchers.addFromFile(file('old', '^(.*)$'));
  matchers.addFromFile(file('new', '^E: (.*)$'));
  assert.deepEqual(matchers.owners, ['new', 'old']);
  assert.deepEqual(matchers.match('E: first wins'), { kind: 'annotation', level: 'error', message: 'first wins' });
  matchers.addFromFile(file('OLD', '^W: (.*)$'));
  assert.deepEqual(matchers.owners, ['OLD', 'new']);
  assert.equal(matchers.match('anything'), undefined, 'the replaced catch-all is gone');
  matchers.remove('Old');
  assert.deepEqual(matchers.owners, ['new']);
  assert.equal(matchers.match('W: gone'), undefined);
  matchers.removeFromFile(file('new', 'x'));
  assert.deepEqual(matchers.owners, []);
});

test("within a step a file's matchers go in front one by one; the next step uses file order", () => {
  const matchers = new ProblemMatchers();
  const both = JSON.stringify({
    problemMatcher: [
      { owner: 'a', pattern: [{ regexp: '^(x.*)$', message: 1 }] },
      { owner: 'b', severity: 'warning', pattern: [{ regexp: '^(x.*)$', message: 1 }] },
    ],
  });
  matchers.addFromFile(both);
  assert.equal(matchers.match('x1')?.level, 'warning', 'b was put in front last');
  matchers.beginStep();
  assert.equal(matchers.match('x1')?.level, 'error');
  const stderr = matchers.openStream();
  assert.deepEqual(stderr.owners, ['a', 'b']);
  matchers.remove('a');
  assert.deepEqual(stderr.owners, ['b']);
  stderr.close();
  matchers.remove('b');
  assert.deepEqual(stderr.owners, ['b'], 'a closed stream no longer follows the job');
});

test('a match in one matcher resets the multi-line progress of the others', () => {
  const matchers = new ProblemMatchers();
  matchers.addFromFile(
    JSON.stringify({ problemMatcher: [{ owner: 'two', pattern: [{ regexp: '^F (.+)$', file: 1 }, { regexp: '^M (.+)$', message: 1 }] }] }),
  );
  matchers.addFromFile(JSON.stringify({ problemMatcher: [{ owner: 'one', pattern: [{ regexp: '^ONE (.+)$', message: 1 }] }] }));
  matchers.match('F a.c');
  assert.equal(matchers.match('ONE hit')?.message, 'hit');
  assert.equal(matchers.match('M lost'), undefined);
});

test("the runner's colour stripping only removes its NUL-33[ sequences, not real ANSI codes", () => {
  const matchers = new ProblemMatchers();
  matchers.addFromFile(JSON.stringify({ problemMatcher: [{ owner: 'm', pattern: [{ regexp: '^the error: (.+)$', message: 1 }] }] }));
  assert.equal(matchers.match('the error: \u000033[31mred, \u000033[mreset')?.message, 'red, reset');
  assert.equal(matchers.match('\u001b[31mthe error: red'), undefined);
});

test('validation errors carry the runner messages', () => {
  const cases: Array<[unknown, string]> = [
    [{ problemMatcher: [{ pattern: [{ regexp: 'x', message: 0 }] }] }, 'Owner must not be empty'],
    [{ problemMatcher: [{ owner: 'o', severity: 'fatal', pattern: [{ regexp: 'x', message: 0 }] }] }, "Matcher 'o' contains unexpected default severity 'fatal'"],
    [{ problemMatcher: [{ owner: 'o', pattern: [] }] }, "Matcher 'o' does not contain any patterns"],
    [{ problemMatcher: [{ owner: 'o', pattern: [{ regexp: '(x)', message: 1, loop: true }] }] }, "Only the last pattern in a multiline matcher may set 'loop'"],
    [{ problemMatcher: [{ owner: 'o', pattern: [{ regexp: '(x)', file: 1 }, { regexp: '(y)', loop: true, line: 1 }] }] }, "The loop pattern must set 'message'"],
    [{ problemMatcher: [{ owner: 'o', pattern: [{ regexp: '(x)', message: 1 }, { regexp: '(y)', message: 1 }] }] }, "The property 'message' is set twice"],
    [{ problemMatcher: [{ owner: 'o', pattern: [{ regexp: '(x)', message: 2 }] }] }, "The property 'message' is set to 2 which is out of range"],
    [{ problemMatcher: [{ owner: 'o', pattern: [{ regexp: '(x)', file: 1 }] }] }, "At least one pattern must set 'message'"],
    [
      { problemMatcher: [{ owner: 'o', pattern: [{ regexp: 'x', message: 0 }] }, { owner: 'O', pattern: [{ regexp: 'x', message: 0 }] }] },
      "Duplicate owner name 'O'",
    ],
  ];
  for (const [doc, message] of cases) {
    const matchers = new ProblemMatchers();
    assert.throws(() => matchers.addFromFile(JSON.stringify(doc), 'm.json'), (error: unknown) => {
      assert.ok(error instanceof ProblemMatcherError);
      assert.equal(error.message, message);
      assert.equal(error.source, 'm.json');
      return true;
    });
    assert.deepEqual(matchers.owners, [], 'nothing is added from an invalid file');
  }
  assert.throws(() => new ProblemMatchers().addFromFile('{ not json'), /Invalid problem matcher file/);
  assert.throws(() => new ProblemMatchers().addFromFile('{"problemMatcher":[{"owner":"o","pattern":[{"regexp":"(","message":0}]}]}'), ProblemMatcherError);
  assert.deepEqual(new ProblemMatchers().addFromFile('{"problemMatcher": []}'), [], 'an empty list adds nothing and is not validated');
});

test('property names match in any case and numbers may be strings', () => {
  const matchers = new ProblemMatchers();
  matchers.addFromFile('\uFEFF{"ProblemMatcher":[{"Owner":"o","Pattern":[{"RegExp":"^(\\\\w+): (.*)$","Severity":"1","Message":2}]}]}');
  assert.deepEqual(matchers.match('warning: careful'), { kind: 'annotation', level: 'warning', message: 'careful' });
});

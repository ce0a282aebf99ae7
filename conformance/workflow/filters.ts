/**
 * Trigger and filter-pattern conformance: every case's expected result is what GitHub's
 * documentation states (docs.github.com, "Workflow syntax for GitHub Actions" and "Events that
 * trigger workflows"); the section is named above each group. A pattern case checks one name or
 * path against a pattern list; a trigger case offers one event to an `on:` section.
 */
import {
  matchFilterPatterns,
  matchTrigger,
  type OnSection,
  type TriggerEvent,
  type TriggerResult,
} from '../../core/workflow/triggers/index.js';
import type { CaseResult, ConformanceSuite } from './suite.js';

type Expect = TriggerResult['status'];
type PatternCase = readonly [patterns: readonly string[], value: string, included: boolean];
type TriggerCase = readonly [label: string, on: OnSection, event: TriggerEvent, expect: Expect];

/** `[patterns, [names that match], [names that do not]]` rows expand to one case per name. */
type PatternRow = readonly [patterns: readonly string[], matching: readonly string[], notMatching?: readonly string[]];

function rows(table: readonly PatternRow[]): PatternCase[] {
  return table.flatMap(([patterns, yes, no = []]) => [
    ...yes.map((value): PatternCase => [patterns, value, true]),
    ...no.map((value): PatternCase => [patterns, value, false]),
  ]);
}

const branch = (name: string, changedFiles?: readonly string[]): TriggerEvent =>
  changedFiles ? { name: 'push', ref: `refs/heads/${name}`, changedFiles } : { name: 'push', ref: `refs/heads/${name}` };
const tag = (name: string): TriggerEvent => ({ name: 'push', ref: `refs/tags/${name}` });
const pr = (action: string, baseRef: string, changedFiles?: readonly string[]): TriggerEvent =>
  changedFiles ? { name: 'pull_request', action, baseRef, changedFiles } : { name: 'pull_request', action, baseRef };
const run = (workflowName: string, action: string, headBranch: string): TriggerEvent => ({
  name: 'workflow_run',
  workflowName,
  action,
  headBranch,
});

const PATTERN_GROUPS: Readonly<Record<string, readonly PatternCase[]>> = {
  // "Filter pattern cheat sheet": the special characters and their examples.
  'cheat-sheet/special-characters': rows([
    [['Octo*'], ['Octocat', 'Octo'], ['Octo/cat']],
    [['a**'], ['a/b/c', 'a']],
    [['*.jsx?'], ['page.js', 'page.jsx'], ['page.jsxx']],
    [['v[0-9]+'], ['v1', 'v123'], ['v']],
    [['[CB]at'], ['Cat', 'Bat'], ['Rat', 'cat']],
    [['[1-2]00'], ['100', '200'], ['300']],
    [['[0-9a-z]'], ['7', 'q'], ['Q', '-']],
    // "If a name contains any of these characters and you want a literal match, escape it with \"
    [['feature\\*'], ['feature*'], ['feature-x']],
    [['c\\+\\+'], ['c++'], ['cc']],
    // "!: ... It has no special meaning if not the first character."
    [['a!b'], ['a!b']],
  ]),
  // "Filter pattern cheat sheet: Patterns to match branches and tags".
  'cheat-sheet/branches-and-tags': rows([
    [['feature/*'], ['feature/my-branch', 'feature/your-branch'], ['feature/beta-a/my-branch']],
    [['feature/**'], ['feature/beta-a/my-branch', 'feature/your-branch', 'feature/mona/the/octocat']],
    [['main', 'releases/mona-the-octocat'], ['main', 'releases/mona-the-octocat'], ['main2', 'releases']],
    [['*'], ['main', 'releases'], ['releases/mona']],
    [['**'], ['all/the/branches', 'every/tag']],
    [['*feature'], ['mona-feature', 'feature', 'ver-10-feature'], ['feature-x']],
    [['v2*'], ['v2', 'v2.0', 'v2.9'], ['v3']],
    [['v[12].[0-9]+.[0-9]+'], ['v1.10.1', 'v2.0.0'], ['v3.0.0', 'v1.x.1']],
  ]),
  // "Filter pattern cheat sheet: Patterns to match file paths" (whole path, from the root).
  'cheat-sheet/paths': rows([
    [['*'], ['README.md', 'server.rb'], ['docs/README.md']],
    [['*.jsx?'], ['page.js', 'page.jsx']],
    [['**'], ['all/the/files.md']],
    [['*.js'], ['app.js', 'index.js'], ['js/index.js']],
    [['**.js'], ['index.js', 'js/index.js', 'src/js/app.js'], ['index.ts']],
    [['docs/*'], ['docs/README.md', 'docs/file.txt'], ['docs/mona/octocat.txt', 'other/docs/a.md']],
    [['docs/**'], ['docs/README.md', 'docs/mona/octocat.txt'], ['dir/docs/a.md']],
    [['docs/**/*.md'], ['docs/README.md', 'docs/mona/hello-world.md', 'docs/a/markdown/file.md'], ['docs/a.txt']],
    [['**/docs/**'], ['docs/hello.md', 'dir/docs/my-file.txt', 'space/docs/plan/space.doc'], ['mydocs/a']],
    [['**/README.md'], ['README.md', 'js/README.md'], ['js/README.mdx']],
    [['**/*src/**'], ['a/src/app.js', 'my-src/code/js/app.js'], ['src.js']],
    [['**/*-post.md'], ['my-post.md', 'path/their-post.md'], ['post.md']],
    [['**/migrate-*.sql'], ['migrate-10909.sql', 'db/migrate-v1.0.sql', 'db/sept/migrate-v1.sql'], ['db/migrate.sql']],
    [['*.md', '!README.md'], ['hello.md'], ['README.md', 'docs/hello.md']],
    [['*.md', '!README.md', 'README*'], ['hello.md', 'README.md', 'README.doc']],
  ]),
};

const PUSH_TAGS = { push: { branches: ['main', 'mona/octocat', 'releases/**'], tags: ['v2', 'v1.*'] } };
const PUSH_IGNORE = { push: { 'branches-ignore': ['mona/octocat', 'releases/**-alpha'], 'tags-ignore': ['v2', 'v1.*'] } };
const PUSH_NEGATED = { push: { branches: ['releases/**', '!releases/**-alpha'] } };
const PR_BRANCHES = { pull_request: { branches: ['main', 'mona/octocat', 'releases/**'] } };
const PR_IGNORE = { pull_request: { 'branches-ignore': ['mona/octocat', 'releases/**-alpha'] } };
const PR_NEGATED = { pull_request: { branches: ['releases/**', '!releases/**-alpha'] } };
const PR_OPENED_RELEASES = { pull_request: { types: ['opened'], branches: ['releases/**'], paths: ['**.js'] } };
const PATHS_JS = { push: { paths: ['**.js'] } };
const PATHS_IGNORE_DOCS = { push: { 'paths-ignore': ['docs/**'] } };
const PATHS_SUB = { push: { paths: ['sub-project/**', '!sub-project/docs/**'] } };
const RUN_RELEASES = { workflow_run: { workflows: ['Build'], types: ['requested'], branches: ['releases/**'] } };
const RUN_NOT_CANARY = { workflow_run: { workflows: ['Build'], types: ['requested'], 'branches-ignore': ['canary'] } };
const RUN_NEGATED = { workflow_run: { workflows: ['Build'], types: ['requested'], branches: ['releases/**', '!releases/**-alpha'] } };
const RUN_STAGING_LAB = { workflow_run: { workflows: ['Staging', 'Lab'], types: ['completed'] } };
const THREE_HUNDRED_DOCS = Array.from({ length: 300 }, (_, i) => `docs/${i}.md`);

const TRIGGER_GROUPS: Readonly<Record<string, readonly TriggerCase[]>> = {
  // "on.push.<branches|tags|branches-ignore|tags-ignore>": including branches and tags.
  'push/including-branches-and-tags': [
    ['main', PUSH_TAGS, branch('main'), 'triggered'],
    ['mona/octocat', PUSH_TAGS, branch('mona/octocat'), 'triggered'],
    ['releases/10', PUSH_TAGS, branch('releases/10'), 'triggered'],
    ['tag v2', PUSH_TAGS, tag('v2'), 'triggered'],
    ['tag v1.9.1', PUSH_TAGS, tag('v1.9.1'), 'triggered'],
    ['dev', PUSH_TAGS, branch('dev'), 'skipped'],
    ['tag v3', PUSH_TAGS, tag('v3'), 'skipped'],
  ],
  // Same section: excluding branches and tags.
  'push/excluding-branches-and-tags': [
    ['mona/octocat', PUSH_IGNORE, branch('mona/octocat'), 'skipped'],
    ['releases/beta/3-alpha', PUSH_IGNORE, branch('releases/beta/3-alpha'), 'skipped'],
    ['tag v2', PUSH_IGNORE, tag('v2'), 'skipped'],
    ['tag v1.9', PUSH_IGNORE, tag('v1.9'), 'skipped'],
    ['main', PUSH_IGNORE, branch('main'), 'triggered'],
    ['tag v3', PUSH_IGNORE, tag('v3'), 'triggered'],
  ],
  // Same section: including and excluding (order matters, `!` after a positive match).
  'push/including-and-excluding': [
    ['releases/10', PUSH_NEGATED, branch('releases/10'), 'triggered'],
    ['releases/beta/mona', PUSH_NEGATED, branch('releases/beta/mona'), 'triggered'],
    ['releases/10-alpha', PUSH_NEGATED, branch('releases/10-alpha'), 'skipped'],
    ['releases/beta/3-alpha', PUSH_NEGATED, branch('releases/beta/3-alpha'), 'skipped'],
    ['re-included', { push: { branches: ['releases/**', '!releases/**-alpha', 'releases/keep-alpha'] } }, branch('releases/keep-alpha'), 'triggered'],
  ],
  // Same section: "If you define only tags/tags-ignore or only branches/branches-ignore, the
  // workflow won't run for events affecting the undefined Git ref. If you define neither ...,
  // the workflow will run for events affecting either branches or tags." Also "You cannot use
  // both the branches and branches-ignore filters" (and tags/tags-ignore).
  'push/branches-versus-tags': [
    ['branches only, tag push', { push: { branches: ['**'] } }, tag('v1'), 'skipped'],
    ['branches-ignore only, tag push', { push: { 'branches-ignore': ['x'] } }, tag('v1'), 'skipped'],
    ['tags only, branch push', { push: { tags: ['**'] } }, branch('main'), 'skipped'],
    ['tags-ignore only, branch push', { push: { 'tags-ignore': ['v1'] } }, branch('main'), 'skipped'],
    ['tags-ignore only, other tag', { push: { 'tags-ignore': ['v1'] } }, tag('v2'), 'triggered'],
    ['neither, branch push', { push: null }, branch('main'), 'triggered'],
    ['neither, tag push', { push: null }, tag('v1'), 'triggered'],
    ['branches and branches-ignore', { push: { branches: ['a'], 'branches-ignore': ['b'] } }, branch('a'), 'invalid'],
    ['tags and tags-ignore', { push: { tags: ['a'], 'tags-ignore': ['b'] } }, tag('a'), 'invalid'],
  ],
  // "Events that trigger workflows: push": "run when someone pushes a tag that starts with v1."
  // and the branches + paths example ("only run when both filters are satisfied").
  'push/events-page': [
    ['tags v1.**', { push: { tags: ['v1.**'] } }, tag('v1.9.1'), 'triggered'],
    ['tags v1.** other', { push: { tags: ['v1.**'] } }, tag('v2.0'), 'skipped'],
    ['branches+paths both', { push: { branches: ['releases/**'], paths: ['**.js'] } }, branch('releases/1', ['a/b.js']), 'triggered'],
    ['branches+paths wrong branch', { push: { branches: ['releases/**'], paths: ['**.js'] } }, branch('main', ['a/b.js']), 'skipped'],
    ['branches+paths no js', { push: { branches: ['releases/**'], paths: ['**.js'] } }, branch('releases/1', ['a.md']), 'skipped'],
  ],
  // "on.<pull_request|pull_request_target>.<branches|branches-ignore>": against the base branch.
  'pull-request/branches': [
    ['main', PR_BRANCHES, pr('opened', 'main'), 'triggered'],
    ['mona/octocat', PR_BRANCHES, pr('opened', 'mona/octocat'), 'triggered'],
    ['releases/10', PR_BRANCHES, pr('opened', 'releases/10'), 'triggered'],
    ['dev', PR_BRANCHES, pr('opened', 'dev'), 'skipped'],
    ['ignore mona/octocat', PR_IGNORE, pr('opened', 'mona/octocat'), 'skipped'],
    ['ignore releases/beta/3-alpha', PR_IGNORE, pr('opened', 'releases/beta/3-alpha'), 'skipped'],
    ['ignore main', PR_IGNORE, pr('opened', 'main'), 'triggered'],
    ['negated releases/10', PR_NEGATED, pr('opened', 'releases/10'), 'triggered'],
    ['negated releases/beta/mona', PR_NEGATED, pr('opened', 'releases/beta/mona'), 'triggered'],
    ['negated releases/10-alpha', PR_NEGATED, pr('opened', 'releases/10-alpha'), 'skipped'],
    ['negated releases/beta/3-alpha', PR_NEGATED, pr('opened', 'releases/beta/3-alpha'), 'skipped'],
    ['both filters', { pull_request: { branches: ['a'], 'branches-ignore': ['b'] } }, pr('opened', 'a'), 'invalid'],
  ],
  // "Events that trigger workflows: pull_request": default types opened/synchronize/reopened,
  // `types`, and the opened + releases/** + **.js example; same defaults for pull_request_target.
  'pull-request/activity-types': [
    ['default opened', { pull_request: null }, pr('opened', 'main'), 'triggered'],
    ['default synchronize', { pull_request: null }, pr('synchronize', 'main'), 'triggered'],
    ['default reopened', { pull_request: null }, pr('reopened', 'main'), 'triggered'],
    ['default closed', { pull_request: null }, pr('closed', 'main'), 'skipped'],
    ['default labeled', { pull_request: null }, pr('labeled', 'main'), 'skipped'],
    ['types opened,reopened: reopened', { pull_request: { types: ['opened', 'reopened'] } }, pr('reopened', 'main'), 'triggered'],
    ['types opened,reopened: synchronize', { pull_request: { types: ['opened', 'reopened'] } }, pr('synchronize', 'main'), 'skipped'],
    ['types review_requested', { pull_request: { types: ['review_requested'] } }, pr('review_requested', 'main'), 'triggered'],
    ['types closed', { pull_request: { types: ['closed'] } }, pr('closed', 'main'), 'triggered'],
    ['opened, releases, js', PR_OPENED_RELEASES, pr('opened', 'releases/1', ['src/a.js']), 'triggered'],
    ['synchronize, releases, js', PR_OPENED_RELEASES, pr('synchronize', 'releases/1', ['src/a.js']), 'skipped'],
    ['opened, main, js', PR_OPENED_RELEASES, pr('opened', 'main', ['src/a.js']), 'skipped'],
    ['opened, releases, md', PR_OPENED_RELEASES, pr('opened', 'releases/1', ['a.md']), 'skipped'],
    ['target default synchronize', { pull_request_target: null }, { name: 'pull_request_target', action: 'synchronize', baseRef: 'main' }, 'triggered'],
    ['target default assigned', { pull_request_target: null }, { name: 'pull_request_target', action: 'assigned', baseRef: 'main' }, 'skipped'],
    ['target types assigned', { pull_request_target: { types: ['assigned', 'opened', 'synchronize', 'reopened'] } }, { name: 'pull_request_target', action: 'assigned', baseRef: 'main' }, 'triggered'],
  ],
  // "on.<push|pull_request|pull_request_target>.<paths|paths-ignore>" and "Git diff comparisons".
  paths: [
    ['**.js with a js file', PATHS_JS, branch('main', ['README.md', 'lib/a.js']), 'triggered'],
    ['**.js without', PATHS_JS, branch('main', ['README.md']), 'skipped'],
    ['paths-ignore docs only', PATHS_IGNORE_DOCS, branch('main', ['docs/a.md', 'docs/b/c.md']), 'skipped'],
    ['paths-ignore docs and more', PATHS_IGNORE_DOCS, branch('main', ['docs/a.md', 'src/a.ts']), 'triggered'],
    ['sub-project/index.js', PATHS_SUB, branch('main', ['sub-project/index.js']), 'triggered'],
    ['sub-project/src/index.js', PATHS_SUB, branch('main', ['sub-project/src/index.js']), 'triggered'],
    ['sub-project/docs only', PATHS_SUB, branch('main', ['sub-project/docs/readme.md']), 'skipped'],
    ['paths and paths-ignore', { push: { paths: ['a'], 'paths-ignore': ['b'] } }, branch('main', ['a']), 'invalid'],
    ['tag push, paths not evaluated', { push: { tags: ['v*'], paths: ['src/**'] } }, tag('v1'), 'triggered'],
    ['tag push, paths only', { push: { paths: ['src/**'] } }, tag('v1'), 'triggered'],
    ['no files changed', PATHS_JS, branch('main', []), 'skipped'],
    ['no files changed, paths-ignore', PATHS_IGNORE_DOCS, branch('main', []), 'skipped'],
    ['diff unavailable', PATHS_JS, branch('main'), 'triggered'],
    ['match beyond the first 300 files', PATHS_JS, branch('main', [...THREE_HUNDRED_DOCS, 'late.js']), 'skipped'],
    ['pull_request paths', { pull_request: { paths: ['**.js'] } }, pr('opened', 'main', ['x.js']), 'triggered'],
  ],
  // "on.workflow_run.<branches|branches-ignore>" and "Events that trigger workflows: workflow_run".
  'workflow-run': [
    ['Build requested on releases/1', RUN_RELEASES, run('Build', 'requested', 'releases/1'), 'triggered'],
    ['Build requested on main', RUN_RELEASES, run('Build', 'requested', 'main'), 'skipped'],
    ['Build completed on releases/1', RUN_RELEASES, run('Build', 'completed', 'releases/1'), 'skipped'],
    ['Test requested on releases/1', RUN_RELEASES, run('Test', 'requested', 'releases/1'), 'skipped'],
    ['not canary: canary', RUN_NOT_CANARY, run('Build', 'requested', 'canary'), 'skipped'],
    ['not canary: main', RUN_NOT_CANARY, run('Build', 'requested', 'main'), 'triggered'],
    ['negated releases/10', RUN_NEGATED, run('Build', 'requested', 'releases/10'), 'triggered'],
    ['negated releases/beta/mona', RUN_NEGATED, run('Build', 'requested', 'releases/beta/mona'), 'triggered'],
    ['negated releases/10-alpha', RUN_NEGATED, run('Build', 'requested', 'releases/10-alpha'), 'skipped'],
    ['negated releases/beta/3-alpha', RUN_NEGATED, run('Build', 'requested', 'releases/beta/3-alpha'), 'skipped'],
    ['negated main', RUN_NEGATED, run('Build', 'requested', 'main'), 'skipped'],
    ['Staging', RUN_STAGING_LAB, run('Staging', 'completed', 'main'), 'triggered'],
    ['Lab', RUN_STAGING_LAB, run('Lab', 'completed', 'main'), 'triggered'],
    ['Prod', RUN_STAGING_LAB, run('Prod', 'completed', 'main'), 'skipped'],
    ['Run Tests', { workflow_run: { workflows: ['Run Tests'], types: ['completed'] } }, run('Run Tests', 'completed', 'x'), 'triggered'],
    ['default types', { workflow_run: { workflows: ['Build'] } }, run('Build', 'in_progress', 'x'), 'triggered'],
    ['both branch filters', { workflow_run: { workflows: ['B'], branches: ['a'], 'branches-ignore': ['b'] } }, run('B', 'completed', 'a'), 'invalid'],
  ],
  // "on.<event_name>.types" and "Events that trigger workflows" (each event's section).
  'other-events': [
    ['label created', { label: { types: ['created', 'edited'] } }, { name: 'label', action: 'created' }, 'triggered'],
    ['label deleted', { label: { types: ['created', 'edited'] } }, { name: 'label', action: 'deleted' }, 'skipped'],
    ['issues, all types by default', { issues: null }, { name: 'issues', action: 'milestoned' }, 'triggered'],
    ['release published', { release: { types: ['published'] } }, { name: 'release', action: 'published' }, 'triggered'],
    ['release created', { release: { types: ['published'] } }, { name: 'release', action: 'created' }, 'skipped'],
    ['merge_group', { merge_group: { types: ['checks_requested'] } }, { name: 'merge_group', action: 'checks_requested' }, 'triggered'],
    ['repository_dispatch test_result', { repository_dispatch: { types: ['test_result'] } }, { name: 'repository_dispatch', action: 'test_result' }, 'triggered'],
    ['repository_dispatch other', { repository_dispatch: { types: ['test_result'] } }, { name: 'repository_dispatch', action: 'deploy' }, 'skipped'],
    ['repository_dispatch, all types', { repository_dispatch: null }, { name: 'repository_dispatch', action: 'deploy' }, 'triggered'],
    ['workflow_dispatch', { workflow_dispatch: { inputs: { logLevel: { type: 'string' } } } }, { name: 'workflow_dispatch' }, 'triggered'],
    ['workflow_call is not an event', 'workflow_call', { name: 'workflow_call' }, 'skipped'],
    ['schedule cron', { schedule: [{ cron: '15 4,5 * * *' }] }, { name: 'schedule', cron: '15 4,5 * * *' }, 'triggered'],
    ['schedule other cron', { schedule: [{ cron: '15 4,5 * * *' }] }, { name: 'schedule', cron: '30 5 * * 1' }, 'skipped'],
    ['on: create', 'create', { name: 'create' }, 'triggered'],
    ['unlisted event', ['push', 'pull_request'], { name: 'fork' }, 'skipped'],
    ['image_version', { image_version: { names: ['MyNewImage', 'MyOtherImage'], versions: ['1.*', '2.*'] } }, { name: 'image_version', imageName: 'MyOtherImage', imageVersion: '2.0.0' }, 'triggered'],
  ],
};

function runPatternCase(id: string, [patterns, value, included]: PatternCase): CaseResult {
  const result = matchFilterPatterns(patterns, value);
  if (!result.ok) return { id, passed: false, reason: result.errors.join('; ') };
  return result.included === included
    ? { id, passed: true }
    : { id, passed: false, reason: `expected ${included ? 'a match' : 'no match'}` };
}

function runTriggerCase(id: string, [, on, event, expect]: TriggerCase): CaseResult {
  const result = matchTrigger(on, event);
  if (result.status === expect) return { id, passed: true };
  const detail = result.status === 'skipped' ? `: ${result.reason}` : result.status === 'invalid' ? `: ${result.errors.join('; ')}` : '';
  return { id, passed: false, reason: `expected ${expect}, got ${result.status}${detail}` };
}

export const filtersSuite: ConformanceSuite = {
  name: 'filters',
  async run() {
    const results: CaseResult[] = [];
    for (const [group, cases] of Object.entries(PATTERN_GROUPS)) {
      for (const c of cases) results.push(runPatternCase(`${group}: [${c[0].join(', ')}] ~ ${c[1]}`, c));
    }
    for (const [group, cases] of Object.entries(TRIGGER_GROUPS)) {
      for (const c of cases) results.push(runTriggerCase(`${group}: ${c[0]}`, c));
    }
    return results;
  },
};

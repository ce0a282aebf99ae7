/**
 * The workflows test/e2e/pool-run.test.ts and pool-history.test.ts run on the built-in pool
 * (CLOSURE and SLOW also in test/cli/run-command.test.ts, on a runner of its own). The
 * examples/ workflows are run as they are; these cover what the examples do not.
 */

/** A job's outputs read by a matrix through `needs`, and the matrix's results by a last job. */
export const MATRIX_NEEDS_OUTPUTS = `name: Matrix needs outputs
on: push
jobs:
  version:
    runs-on: ubuntu-latest
    outputs:
      version: \${{ steps.compute.outputs.version }}
    steps:
      - id: compute
        run: echo "version=2.0.\${{ github.run_number }}-committed" >> "$GITHUB_OUTPUT"
  test:
    needs: version
    name: test (\${{ matrix.flavour }})
    runs-on: ubuntu-latest
    strategy:
      matrix:
        flavour: [sweet, sour]
    steps:
      - run: echo "testing \${{ needs.version.outputs.version }} \${{ matrix.flavour }} on $RUNNER_NAME"
  done:
    needs: [version, test]
    runs-on: ubuntu-latest
    outputs:
      summary: \${{ steps.sum.outputs.summary }}
    steps:
      - id: sum
        run: echo "summary=\${{ needs.version.outputs.version }} \${{ needs.test.result }}" >> "$GITHUB_OUTPUT"
`;

/** Checks the run's commit out from the relay as actions/checkout does, then reads the working tree's files. */
export const RELAY = `name: Relay
on: push
jobs:
  checkout:
    runs-on: ubuntu-latest
    outputs:
      content: \${{ steps.read.outputs.content }}
    steps:
      - name: Check out
        env:
          TOKEN: \${{ github.token }}
        run: |
          git init -q .
          auth="AUTHORIZATION: basic $(printf 'x-access-token:%s' "$TOKEN" | base64 -w0)"
          git -c http.extraheader="$auth" fetch -q --depth=1 "$GITHUB_SERVER_URL/$GITHUB_REPOSITORY" "$GITHUB_SHA"
          git checkout -q FETCH_HEAD
      - id: read
        run: |
          echo "changed.txt says $(cat changed.txt)"
          echo "content=$(cat changed.txt)" >> "$GITHUB_OUTPUT"
          test -f untracked.txt && echo "untracked.txt came along"
          test "$(git rev-parse HEAD)" = "$GITHUB_SHA" && echo "HEAD is the run's commit"
`;

/**
 * A workflow calling a reusable workflow of another repository from the action mirror
 * (`REMOTE_MIRROR` below), passing inputs and reading its outputs; the called job checks the
 * caller's commit out, runs a remote action of the mirror and a local action of the caller's
 * repository (which nests the remote one), and the called workflow calls a sibling with `./`.
 */
export const REMOTE_CALLER = `name: Remote call
on: push
jobs:
  call:
    uses: acme/shared/.github/workflows/build.yml@v1
    with:
      target: e2e
    secrets: inherit
  report:
    needs: call
    runs-on: ubuntu-latest
    outputs:
      summary: \${{ steps.sum.outputs.summary }}
    steps:
      - id: sum
        run: |
          echo "the call built \${{ needs.call.outputs.artifact }} (\${{ needs.call.result }})"
          echo "summary=\${{ needs.call.outputs.artifact }}|\${{ needs.call.outputs.greeting }}" >> "$GITHUB_OUTPUT"
`;

/** The caller's own composite action: it nests the mirror's remote action. */
export const LOCAL_GREET = `name: local greet
inputs:
  who:
    required: true
outputs:
  said:
    value: \${{ steps.greet.outputs.said }}
runs:
  using: composite
  steps:
    - id: greet
      uses: acme/greet@v1
      with:
        who: \${{ inputs.who }}
`;

/** The repositories of the action mirror the remote call reads: `owner/repo` → files. */
export const REMOTE_MIRROR: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'acme/greet': {
    'action.yml': `name: greet
inputs:
  who:
    default: world
outputs:
  said:
    value: \${{ steps.say.outputs.said }}
runs:
  using: composite
  steps:
    - id: say
      shell: bash
      run: |
        echo "greet says hello \${{ inputs.who }}"
        echo "said=hello \${{ inputs.who }}" >> "$GITHUB_OUTPUT"
`,
  },
  'acme/shared': {
    '.github/workflows/build.yml': `on:
  workflow_call:
    inputs:
      target:
        type: string
        required: true
      level:
        type: number
        default: 3
    outputs:
      artifact:
        value: \${{ jobs.build.outputs.artifact }}
      greeting:
        value: \${{ jobs.build.outputs.greeting }}
jobs:
  build:
    runs-on: ubuntu-latest
    outputs:
      artifact: \${{ steps.build.outputs.artifact }}
      greeting: \${{ steps.local.outputs.said }}
    steps:
      - name: Check out the caller's commit
        env:
          TOKEN: \${{ github.token }}
        run: |
          git init -q .
          auth="AUTHORIZATION: basic $(printf 'x-access-token:%s' "$TOKEN" | base64 -w0)"
          git -c http.extraheader="$auth" fetch -q --depth=1 "$GITHUB_SERVER_URL/$GITHUB_REPOSITORY" "$GITHUB_SHA"
          git checkout -q FETCH_HEAD
      - id: build
        run: |
          echo "building \${{ inputs.target }} at level \${{ inputs.level }} from \${{ job.workflow_ref }}"
          echo "artifact=\${{ inputs.target }}-\${{ inputs.level }}.tgz" >> "$GITHUB_OUTPUT"
      - id: remote
        uses: acme/greet@v1
        with:
          who: remote
      - id: local
        uses: ./.github/actions/local-greet
        with:
          who: local
      - run: echo "the remote action said \${{ steps.remote.outputs.said }}"
  check:
    uses: ./.github/workflows/check.yml
`,
    '.github/workflows/check.yml': `on: workflow_call
jobs:
  sha:
    runs-on: ubuntu-latest
    steps:
      - run: echo "check from \${{ job.workflow_repository }} at \${{ job.workflow_sha }}"
`,
  },
};

export const CLOSURE = `name: Closure
on: push
jobs:
  setup:
    runs-on: ubuntu-latest
    steps:
      - run: echo setup-ran
  build:
    needs: setup
    runs-on: ubuntu-latest
    steps:
      - run: echo build-ran
  unrelated:
    runs-on: ubuntu-latest
    steps:
      - run: echo unrelated-ran
`;

export const SLOW = `name: Slow
on: push
jobs:
  wait:
    runs-on: ubuntu-latest
    steps:
      - run: echo started && sleep 120 && echo never
      - if: always()
        run: echo cleanup-after-cancel
`;

export interface IsolationTargets {
  /** A file on the host, outside anything a guest is given. */
  readonly secretFile: string;
  /** The server's SQLite database (the run's secrets and tokens live there). */
  readonly database: string;
  /** A process of the host. */
  readonly hostPid: number;
}

/**
 * What a job can see and reach on the host, as outputs: each file `present`/`absent`, the signal
 * `delivered`/`refused`, and the HTTP status of a control-plane route, a health route and a runner
 * route at the server's origin (`000` when nothing answers).
 */
export function isolationProbe(targets: IsolationTargets): string {
  return `name: Isolation
on: push
jobs:
  probe:
    runs-on: ubuntu-latest
    outputs:
      secret: \${{ steps.files.outputs.secret }}
      database: \${{ steps.files.outputs.database }}
      signal: \${{ steps.signal.outputs.signal }}
      status: \${{ steps.routes.outputs.status }}
      readyz: \${{ steps.routes.outputs.readyz }}
      runner: \${{ steps.routes.outputs.runner }}
    steps:
      - id: files
        run: |
          seen() { if test -e "$1"; then echo present; else echo absent; fi; }
          echo "secret=$(seen '${targets.secretFile}')" >> "$GITHUB_OUTPUT"
          echo "database=$(seen '${targets.database}')" >> "$GITHUB_OUTPUT"
      - id: signal
        run: |
          if kill -0 ${targets.hostPid} 2>/dev/null; then echo signal=delivered; else echo signal=refused; fi >> "$GITHUB_OUTPUT"
      - id: routes
        run: |
          origin="\${GITHUB_API_URL%/api/v3}"
          code() { curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$origin$1" || true; }
          echo "status=$(code /api/v1/status)" >> "$GITHUB_OUTPUT"
          echo "readyz=$(code /readyz)" >> "$GITHUB_OUTPUT"
          echo "runner=$(code '/_apis/connectionData?connectOptions=1&lastChangeId=-1&lastChangeId64=-1')" >> "$GITHUB_OUTPUT"
          cat "$GITHUB_OUTPUT"
`;
}

/** A step that logs lines around two annotations (GitHub shows each at its line), then a second step. */
export const ANNOTATIONS = `name: Annotations
on: push
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - name: Lint
        run: |
          echo "linting src"
          echo "::error file=src/app.c,line=3::missing semicolon"
          echo "::warning::unused variable"
          echo "lint done"
      - name: Next
        run: echo "next step ran"
`;

/** Checks out the run's commit, builds a directory and uploads it with the local upload action (artifact-action.ts). */
export const ARTIFACTS = `name: Artifacts
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    outputs:
      url: \${{ steps.upload.outputs.artifact-url }}
    steps:
      - name: Check out
        env:
          TOKEN: \${{ github.token }}
        run: |
          git init -q .
          auth="AUTHORIZATION: basic $(printf 'x-access-token:%s' "$TOKEN" | base64 -w0)"
          git -c http.extraheader="$auth" fetch -q --depth=1 "$GITHUB_SERVER_URL/$GITHUB_REPOSITORY" "$GITHUB_SHA"
          git checkout -q FETCH_HEAD
      - name: Build
        run: |
          mkdir -p dist/sub
          echo "built from $GITHUB_SHA" > dist/app.txt
          echo "release notes" > dist/sub/notes.txt
      - id: upload
        uses: ./.github/actions/upload
        with:
          name: dist
          path: dist
`;

/**
 * Checks the repository out as actions/checkout does for \`fetch-depth: 0\` (every branch and tag,
 * then the run branch), and reports what a user compares with their repository; then a depth-1
 * fetch of the sha (actions/checkout's default).
 */
export const HISTORY = `name: History
on: push
jobs:
  history:
    runs-on: ubuntu-latest
    outputs:
      sha: \${{ steps.read.outputs.sha }}
      head: \${{ steps.read.outputs.head }}
      parent: \${{ steps.read.outputs.parent }}
      count: \${{ steps.read.outputs.count }}
      describe: \${{ steps.read.outputs.describe }}
      author: \${{ steps.read.outputs.author }}
      file: \${{ steps.read.outputs.file }}
      depth1: \${{ steps.depth1.outputs.count }}
    steps:
      - name: Check out with fetch-depth 0
        env:
          TOKEN: \${{ github.token }}
        run: |
          git init -q .
          git remote add origin "$GITHUB_SERVER_URL/$GITHUB_REPOSITORY"
          git config --local "http.$GITHUB_SERVER_URL/.extraheader" "AUTHORIZATION: basic $(printf 'x-access-token:%s' "$TOKEN" | base64 -w0)"
          git -c protocol.version=2 fetch --prune --no-recurse-submodules origin '+refs/heads/*:refs/remotes/origin/*' '+refs/tags/*:refs/tags/*'
          git checkout -q --force -B main refs/remotes/origin/main
      - id: read
        run: |
          echo "sha=$GITHUB_SHA" >> "$GITHUB_OUTPUT"
          echo "head=$(git rev-parse HEAD)" >> "$GITHUB_OUTPUT"
          echo "parent=$(git rev-parse HEAD^)" >> "$GITHUB_OUTPUT"
          echo "count=$(git log --oneline | wc -l | tr -d ' ')" >> "$GITHUB_OUTPUT"
          echo "describe=$(git describe --tags)" >> "$GITHUB_OUTPUT"
          echo "author=$(git log -1 --format='%an <%ae>')" >> "$GITHUB_OUTPUT"
          echo "file=$(head -n 1 file-3.txt)" >> "$GITHUB_OUTPUT"
      - id: depth1
        env:
          TOKEN: \${{ github.token }}
        run: |
          git init -q "$RUNNER_TEMP/one" && cd "$RUNNER_TEMP/one"
          auth="AUTHORIZATION: basic $(printf 'x-access-token:%s' "$TOKEN" | base64 -w0)"
          git -c http.extraheader="$auth" fetch -q --no-tags --depth=1 "$GITHUB_SERVER_URL/$GITHUB_REPOSITORY" "$GITHUB_SHA"
          echo "count=$(git rev-list --count FETCH_HEAD)" >> "$GITHUB_OUTPUT"
`;

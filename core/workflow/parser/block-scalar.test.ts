import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateTemplateValue } from '../templates/index.js';
import { loadWorkflow } from './index.js';

const WORKFLOW = `on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: |
          cat <<EOF
          ref=\${{ github.ref }}
          EOF
          python3 - <<'PY'
          if True:
              print("\${{ github.sha }}")
          PY
`;

describe('block scalars with expressions', () => {
  it('a run: | script keeps its value, not the YAML indentation, around ${{ }}', async () => {
    const loaded = await loadWorkflow({ name: 'ci.yml', content: WORKFLOW });
    assert.deepEqual(loaded.errors, []);
    const job = loaded.template?.jobs[0] as { steps?: readonly { run?: unknown }[] } | undefined;
    const step = job?.steps?.[0];
    assert.ok(step?.run);
    const value = evaluateTemplateValue(step.run as never, { github: { ref: 'refs/heads/main', sha: 'abc' } }, { field: 'jobs.<job_id>.steps.run' });
    assert.equal(value, 'cat <<EOF\nref=refs/heads/main\nEOF\npython3 - <<\'PY\'\nif True:\n    print("abc")\nPY\n');
  });
});

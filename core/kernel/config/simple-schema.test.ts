import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'smol-toml';
import { PluginsFileSchema } from '../plugins-file-schema.js';
import { simpleSchemaAccepts } from './simple-schema.js';
import { compileSchema } from './validator.js';

const ajv = compileSchema(PluginsFileSchema);

const VALID = [
  '',
  '[backends]\nstore = "postgres"\nnotifier = "redis"\nblobs = "filesystem"\nsnapshots = "git"\n',
  '[backends]\nblobs = "auto"\n',
  '[backends]\nblobs = "postgres"\n',
  '[[plugin]]\nid = "engine"\n[[plugin]]\npackage = "@acme/svc-audit"\n[[plugin]]\npath = "./local.js"\n',
  '[backends]\n[[plugin]]\nid = "a-1"\n',
];

const INVALID = [
  '[backends]\nstore = "mysql"\n',
  '[backends]\nsnapshots = "s3"\n',
  '[backends]\ncolour = "blue"\n',
  'backends = "sqlite"\n',
  '[[plugin]]\nname = "x"\n',
  '[[plugin]]\nid = "x"\npackage = "y"\n',
  '[[plugin]]\nid = "Engine"\n',
  '[[plugin]]\nid = "1engine"\n',
  '[[plugin]]\npackage = ""\n',
  '[[plugin]]\npath = 3\n',
  '[plugins]\n',
  'plugin = "engine"\n',
  'plugin = ["engine"]\n',
  '[plugin]\nid = "engine"\n',
];

describe('simpleSchemaAccepts', () => {
  it('accepts the valid plugins files, so the CLI reads them without Ajv', () => {
    for (const text of VALID) {
      const data = parse(text);
      assert.equal(ajv()(data), true, text);
      assert.equal(simpleSchemaAccepts(PluginsFileSchema, data), true, text);
    }
  });

  it('never accepts what Ajv refuses (Ajv then words the problem)', () => {
    for (const text of INVALID) {
      const data = parse(text);
      assert.equal(ajv()(data), false, text);
      assert.equal(simpleSchemaAccepts(PluginsFileSchema, data), false, text);
    }
  });

  it('answers no for keywords it does not know, whatever the value', () => {
    assert.equal(simpleSchemaAccepts({ type: 'string', maxLength: 3 }, 'abcdef'), false);
    assert.equal(simpleSchemaAccepts({ type: 'integer' }, 1), false);
    assert.equal(simpleSchemaAccepts({ type: 'object', additionalProperties: { type: 'string' } }, {}), false);
    assert.equal(simpleSchemaAccepts({ type: 'string', minLength: 1 }, 'a'), true);
  });
});

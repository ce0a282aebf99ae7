/**
 * JSON Schemas of the corpus files (scenario, fragment, corpus.yaml). The loader checks every
 * file against them before anything runs, so a typo in a data file is a clear load error naming
 * the file and the member, never a confusing failure mid-replay.
 */
const NAME = { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' } as const;
const IDENT = { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' } as const;
const RANGE = { type: 'string', pattern: '^\\s*(?:(?:>=|<=|>|<|=)?\\d+\\.\\d+\\.\\d+\\s*)+$' } as const;
const WHEN = { type: 'object', additionalProperties: false, minProperties: 1, properties: { runners: RANGE, if: { type: 'string', minLength: 1 } } } as const;
const ANY_MAP = { type: 'object' } as const;

const body = {
  type: 'object',
  minProperties: 1,
  maxProperties: 1,
  additionalProperties: false,
  properties: {
    json: {},
    form: ANY_MAP,
    text: { type: 'string' },
    logPage: { type: 'object', additionalProperties: false, required: ['lines'], properties: { lines: { oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] }, at: {} } },
    records: { oneOf: [{ type: 'array', minItems: 1 }, { type: 'string' }] },
    tar: {},
  },
} as const;

const request = {
  type: 'object',
  additionalProperties: false,
  required: ['method'],
  properties: {
    method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] },
    url: { type: 'string' },
    base: { type: 'string' },
    location: { type: 'string' },
    route: {},
    path: { type: 'string' },
    vssPath: { type: 'string' },
    query: ANY_MAP,
    headers: ANY_MAP,
    body,
    followRedirects: { type: 'boolean' },
  },
  // Exactly one way to say where the request goes.
  oneOf: [
    { required: ['url'], not: { anyOf: [{ required: ['base'] }, { required: ['location'] }, { required: ['path'] }, { required: ['vssPath'] }] } },
    { required: ['base', 'location'], not: { anyOf: [{ required: ['url'] }, { required: ['path'] }, { required: ['vssPath'] }] } },
    { required: ['base', 'path'], not: { anyOf: [{ required: ['url'] }, { required: ['location'] }, { required: ['route'] }, { required: ['vssPath'] }] } },
    { required: ['base', 'vssPath'], not: { anyOf: [{ required: ['url'] }, { required: ['location'] }, { required: ['route'] }, { required: ['path'] }] } },
  ],
} as const;

const expectation = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { oneOf: [{ type: 'integer' }, { type: 'array', minItems: 1, items: { type: 'integer' } }] },
    headers: ANY_MAP,
    body: {
      type: 'object',
      additionalProperties: false,
      properties: {
        empty: { enum: [true, 'allowed'] },
        format: { enum: ['json', 'ndjson', 'text', 'archive'] },
        wrapped: { type: 'boolean' },
        schema: { type: 'object' },
        match: {},
        unknownFields: { enum: ['ignore', 'fail'] },
      },
    },
    elapsedMs: { type: 'object', additionalProperties: false, properties: { min: {}, max: {} } },
  },
} as const;

export const exchangeStepSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'request'],
  properties: {
    name: { type: 'string', minLength: 1 },
    when: WHEN,
    request,
    expect: expectation,
    capture: { type: 'object', propertyNames: IDENT, additionalProperties: { type: 'string', minLength: 1 } },
    repeat: {
      type: 'object',
      additionalProperties: false,
      required: ['whileEmpty', 'budgetMs'],
      properties: { whileEmpty: { const: true }, budgetMs: { type: 'integer', minimum: 1 } },
    },
    eventually: {
      type: 'object',
      additionalProperties: false,
      required: ['budgetMs'],
      properties: { budgetMs: { type: 'integer', minimum: 1 }, intervalMs: { type: 'integer', minimum: 1 } },
    },
    background: IDENT,
  },
} as const;

const step = {
  oneOf: [
    exchangeStepSchema,
    { type: 'object', additionalProperties: false, required: ['include'], properties: { include: NAME, with: ANY_MAP, when: WHEN } },
    { type: 'object', additionalProperties: false, required: ['set'], properties: { set: { type: 'object', propertyNames: IDENT, minProperties: 1 }, when: WHEN } },
    {
      type: 'object',
      additionalProperties: false,
      required: ['derive', 'as'],
      properties: {
        derive: { enum: ['rsaKey', 'clientAssertion', 'sessionKey', 'decryptMessage', 'parseJson', 'jwtClaims', 'jitConfig', 'merge', 'base64', 'sha256', 'url', 'regex', 'verifyJwt'] },
        as: IDENT,
        with: ANY_MAP,
        when: WHEN,
      },
    },
    { type: 'object', additionalProperties: false, required: ['await'], properties: { await: IDENT, when: WHEN } },
    { type: 'object', additionalProperties: false, required: ['sleep'], properties: { sleep: {}, when: WHEN } },
    {
      type: 'object',
      additionalProperties: false,
      required: ['assert', 'value'],
      anyOf: [{ required: ['schema'] }, { required: ['match'] }],
      properties: { assert: { type: 'string', minLength: 1 }, value: {}, schema: { type: 'object' }, match: {}, when: WHEN },
    },
  ],
} as const;

export const scenarioSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'title', 'description', 'runners', 'server', 'sources', 'steps'],
  properties: {
    name: NAME,
    title: { type: 'string', minLength: 1 },
    description: { type: 'string', minLength: 1 },
    runners: RANGE,
    server: NAME,
    sources: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^src/' } },
    quarantined: { type: 'string', minLength: 1 },
    vars: { type: 'object', propertyNames: IDENT },
    workflow: {
      type: 'object',
      additionalProperties: false,
      required: ['path', 'files'],
      properties: { path: { type: 'string', pattern: '^\\.github/workflows/[^/]+\\.ya?ml$' }, files: { type: 'object', minProperties: 1, additionalProperties: { type: 'string' } } },
    },
    steps: { type: 'array', minItems: 1, items: step },
    checks: { type: 'array', items: exchangeStepSchema },
  },
} as const;

export const fragmentSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'description', 'steps'],
  properties: {
    name: NAME,
    description: { type: 'string', minLength: 1 },
    requires: { type: 'array', items: IDENT },
    steps: { type: 'array', minItems: 1, items: step },
  },
} as const;

export const corpusSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['recordedAgainst', 'headers', 'defaultTimings', 'servers', 'upstream', 'recordDefaults'],
  properties: {
    recordedAgainst: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+$' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    defaultTimings: { type: 'object', additionalProperties: { type: 'integer', minimum: 1 } },
    servers: {
      type: 'object',
      minProperties: 1,
      propertyNames: NAME,
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['description'],
        properties: {
          description: { type: 'string' },
          env: { type: 'object', additionalProperties: { type: 'string' } },
          timings: { type: 'object', additionalProperties: { type: 'integer', minimum: 1 } },
          publicHost: { type: 'string', pattern: '^[a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.localhost$' },
          mirror: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              additionalProperties: false,
              required: ['ref', 'files'],
              properties: { ref: { type: 'string', minLength: 1 }, files: { type: 'object', additionalProperties: { type: 'string' } } },
            },
          },
        },
      },
    },
    upstream: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^src/' } },
    recordDefaults: { type: 'object' },
  },
} as const;

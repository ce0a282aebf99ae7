/** Import-direction and cycle rules (docs/ARCHITECTURE.md, "Dependency direction"). `npm run check:imports` names the top-level folders to cruise. */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Runtime import cycles. Type-only imports and lazy catalog imports do not run at load time.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] } },
    },
    {
      name: 'workflow-protocol-are-pure',
      comment: 'core/workflow and core/protocol import nothing of ours but each other.',
      severity: 'error',
      from: { path: '^core/(workflow|protocol)/' },
      to: { path: '^(core/(kernel|engine|ports)|backends|plugins|cli|runner)/' },
    },
    {
      name: 'node-dist-is-standalone',
      comment: 'core/node-dist (Node.js releases for svc-runner and the pool) imports nothing of ours.',
      severity: 'error',
      from: { path: '^core/node-dist/' },
      to: { path: '^(core/(?!node-dist/)[^/]+|backends|plugins|cli|runner)/' },
    },
    {
      name: 'kernel-knows-no-ci',
      comment: 'The kernel imports plugins and backends only lazily from its catalog.',
      severity: 'error',
      from: { path: '^core/kernel/', pathNot: '^core/kernel/catalog\\.ts$' },
      to: { path: '^(core/(engine|workflow)|backends|plugins|cli|runner)/' },
    },
    {
      name: 'catalog-imports-only-entry-points',
      comment: "Entry points: a backend's or plugin's index.ts, and a plugin's CLI face (cli/index.ts).",
      severity: 'error',
      from: { path: '^core/kernel/catalog\\.ts$' },
      to: { path: '^(backends|plugins)/', pathNot: ['^(backends|plugins)/[^/]+/index\\.ts$', '^plugins/[^/]+/cli/index\\.ts$'] },
    },
    {
      name: 'ports-are-interfaces',
      severity: 'error',
      from: { path: '^core/ports/' },
      to: { path: '^(core/engine|backends|plugins|cli|runner)/' },
    },
    {
      name: 'engine-talks-through-ports',
      severity: 'error',
      from: { path: '^core/engine/' },
      to: { path: '^(backends|plugins|cli|runner)/' },
    },
    {
      name: 'backends-implement-ports',
      severity: 'error',
      from: { path: '^backends/' },
      to: { path: '^(core/engine|plugins|cli|runner)/' },
    },
    {
      name: 'no-plugin-imports-a-backend',
      severity: 'error',
      from: { path: '^(plugins|cli|runner|core/engine)/' },
      to: { path: '^backends/' },
    },
    {
      name: 'plugins-do-not-import-each-other',
      severity: 'error',
      from: { path: '^plugins/([^/]+)/' },
      to: { path: '^plugins/', pathNot: '^plugins/$1/' },
    },
    {
      name: 'runner-is-standalone',
      severity: 'error',
      from: { path: '^runner/' },
      to: { path: '^(core/engine|core/ports|backends|plugins|cli)/' },
    },
    {
      name: 'only-through-index',
      comment: "A folder's public face is its index.ts; nothing else is imported from outside it. CLI faces: core/kernel/cli/index.ts (the kernel without the server), core/kernel/http-exchange/index.ts (the CLI's and the runner's HTTP without fetch) and a plugin's cli/index.ts (its commands, for the catalog).",
      severity: 'error',
      from: { path: '^(core/[^/]+|backends/[^/]+|plugins/[^/]+|runner/[^/]+|cli)/' },
      to: {
        path: '^(core/[^/]+|backends/[^/]+|plugins/[^/]+|runner/[^/]+)/.+',
        pathNot: ['^$1/', '^(core/[^/]+|backends/[^/]+|plugins/[^/]+|runner/[^/]+)/index\\.ts$', '^core/kernel/cli/index\\.ts$', '^core/kernel/http-exchange/index\\.ts$', '^plugins/[^/]+/cli/index\\.ts$'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^dist|node_modules)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};

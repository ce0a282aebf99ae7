import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../core/kernel/index.js';

const settings = (env: Record<string, string>) => {
  // No config file: HOME points where there is none.
  const config = loadConfig({ env: { HOME: '/nonexistent-home', ...env }, cwd: '/' });
  return { ...config.env.runtimeServices, warnings: config.env.warnings };
};

test('runtime-services knobs: defaults, values, and invalid values falling back with a warning', () => {
  const defaults = settings({});
  assert.deepEqual(
    { cacheMaxBytes: defaults.cacheMaxBytes, cacheMaxAgeDays: defaults.cacheMaxAgeDays, artifactRetentionDays: defaults.artifactRetentionDays, oidcKeyRotationDays: defaults.oidcKeyRotationDays },
    { cacheMaxBytes: 10 * 1024 ** 3, cacheMaxAgeDays: 7, artifactRetentionDays: 90, oidcKeyRotationDays: 30 },
  );
  const set = settings({ SVC_CACHE_MAX_BYTES: '1048576', SVC_CACHE_MAX_AGE_DAYS: '3', SVC_ARTIFACT_RETENTION_DAYS: '14', SVC_OIDC_KEY_ROTATION_DAYS: '2' });
  assert.deepEqual([set.cacheMaxBytes, set.cacheMaxAgeDays, set.artifactRetentionDays, set.oidcKeyRotationDays], [1048576, 3, 14, 2]);
  const bad = settings({ SVC_CACHE_MAX_BYTES: 'lots', SVC_ARTIFACT_RETENTION_DAYS: '0' });
  assert.deepEqual([bad.cacheMaxBytes, bad.artifactRetentionDays], [10 * 1024 ** 3, 90]);
  assert.ok(bad.warnings.some((warning) => warning.startsWith('SVC_CACHE_MAX_BYTES=')));
  assert.ok(bad.warnings.some((warning) => warning.startsWith('SVC_ARTIFACT_RETENTION_DAYS=')));
});

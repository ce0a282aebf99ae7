/**
 * The forge simulator for tests: a real HTTP server speaking the forge's REST API over git
 * repositories it builds in a temp directory, checked request by request against GitHub's
 * published OpenAPI description (`@octokit/openapi`). Operations are keyed by operationId
 * (operation-table.ts); later forge work adds its own through `options.operations`.
 *
 *   const forge = await startForgeSimulator(t, { token: 'ghp_test' });
 *   const sha = await forge.repositories.create('acme/tool', { files: { 'action.yml': '…' }, tags: ['v1'] });
 *   // SVC_FORGE_API_URL = forge.apiUrl; forge.count('repos/get-commit') …
 *
 * The test fails (after its cleanups) when any request or answer did not match the description.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { onCleanup } from '../services.js';
import { ForgeSimulator, type ForgeSimulatorOptions } from './forge-simulator.js';
import { GitRepositories } from './git-repositories.js';

export { ForgeSimulator, type ForgeRequestRecord, type ForgeSimulatorOptions } from './forge-simulator.js';
export { GitRepositories, type ArchiveFormat, type Repository, type RepositoryContent } from './git-repositories.js';
export { forgeError, notFound, type ForgeContext, type OperationHandler, type OperationTable, type SimulatedRequest, type SimulatedResponse } from './operation-table.js';
export { loadDescription, type OpenApiDescription, type OpenApiOperation } from './openapi-description.js';
export { OpenApiValidator } from './openapi-validator.js';
export { REPOSITORY_OPERATIONS } from './repository-operations.js';
export { APP_OPERATIONS, SimulatedApps, type AcceptedJwt, type MintedToken, type PermissionLevel, type SimulatedApp, type SimulatedInstallation } from './app-operations.js';

/** A started simulator, stopped after the test; the test fails if the simulator saw any mismatch. */
export async function startForgeSimulator(t: TestContext, options: ForgeSimulatorOptions = {}): Promise<ForgeSimulator> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-forge-'));
  const simulator = new ForgeSimulator(new GitRepositories(dir), options);
  // Cleanups first, the check after them (node runs `after` hooks in the order they were added).
  onCleanup(t, async () => {
    await simulator.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  t.after(() => assertMatchesDescription(simulator));
  await simulator.start();
  return simulator;
}

export function assertMatchesDescription(simulator: ForgeSimulator): void {
  if (simulator.violations.length === 0) return;
  throw new Error(
    `the forge simulator saw ${simulator.violations.length} request(s) or answer(s) that do not match GitHub's OpenAPI description:\n` +
      simulator.violations.map((violation) => `  - ${violation}`).join('\n'),
  );
}

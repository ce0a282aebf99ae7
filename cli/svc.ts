#!/usr/bin/env node
import { Command } from 'commander';
import { defaultCatalog } from '../builtins/index.js';
import { loadPluginCommands, packageInfo, provideCredentialBackends } from '../core/kernel/cli/index.js';
import { addClusterKeyCommand } from './cluster-key-command.js';
import { addPlanCommand } from './plan-command.js';
import { addPluginCommands } from './plugin-commands.js';
import { addServeCommand } from './serve-command.js';

const program = new Command('svc')
  .description('svc: run GitHub Actions workflow files unchanged on machines you own')
  .version(packageInfo().version, '-V, --version', 'print the version');
addServeCommand(program);
addPlanCommand(program);
addClusterKeyCommand(program);
// Plugin commands find the server's stored system token with the built-in credential stores.
provideCredentialBackends(defaultCatalog.credentials);
try {
  addPluginCommands(program, await loadPluginCommands(process.env, defaultCatalog));
} catch (error) {
  // A broken plugins.toml must not take `svc --version` or `svc serve`'s own error message down.
  program.addHelpText('after', `\n(plugin commands unavailable: ${(error as Error).message})`);
}
await program.parseAsync(process.argv);

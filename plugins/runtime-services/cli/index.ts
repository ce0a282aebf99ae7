import type { CommandDefinition } from '../../../core/kernel/cli/index.js';
import { artifactsDownloadCommand, artifactsListCommand } from './artifacts-commands.js';

/** The runtime-services plugin's `svc` subcommands: a run's artifacts, over the server's API. */
export const runtimeServicesCommands: readonly CommandDefinition[] = [artifactsListCommand, artifactsDownloadCommand];

import type { CommandDefinition } from '../../../core/kernel/cli/index.js';
import { runCommand } from './run-command.js';

/** The local-runs plugin's `svc` subcommands. */
export const localRunsCommands: readonly CommandDefinition[] = [runCommand];

import type { CommandDefinition } from '../../../core/kernel/cli/index.js';
import { approveCommand } from './approve-command.js';
import { logsCommand } from './logs-command.js';
import { rerunCommand } from './rerun-command.js';
import { statusCommand } from './status-command.js';

/** The engine's `svc` subcommands; they talk to a running server over HTTP. */
export const engineCommands: readonly CommandDefinition[] = [statusCommand, logsCommand, rerunCommand, approveCommand];

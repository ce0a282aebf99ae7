import type { CommandDefinition } from '../../../core/kernel/cli/index.js';
import { secretCommands, varCommands } from './value-commands.js';

/** The secrets plugin's `svc` subcommands: `svc secret set|list|rm`, `svc var set|list|rm`, over the server's API. */
export const secretsCommands: readonly CommandDefinition[] = [...secretCommands, ...varCommands];

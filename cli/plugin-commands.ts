import type { Command } from 'commander';
import type { PluginCommand } from '../core/kernel/cli/index.js';

/** Adds plugin-contributed subcommands (`webhooks list` becomes `svc webhooks list`). */
export function addPluginCommands(program: Command, commands: readonly PluginCommand[]): void {
  for (const { command } of commands) {
    const words = command.name.split(' ');
    let parent = program;
    for (const word of words.slice(0, -1)) {
      parent = parent.commands.find((c) => c.name() === word) ?? parent.command(word);
    }
    const sub = parent.command(words[words.length - 1] ?? command.name).description(command.description);
    for (const arg of command.arguments ?? []) sub.argument(arg.required ? `<${arg.name}>` : `[${arg.name}]`, arg.description);
    for (const option of command.options ?? []) sub.option(option.flags, option.description, option.defaultValue);
    sub.action(async (...received: unknown[]) => {
      const self = received[received.length - 1] as Command;
      const code = await command.run(self.args, self.opts(), { stdout: process.stdout, stderr: process.stderr, env: process.env });
      if (typeof code === 'number') process.exitCode = code;
    });
  }
}

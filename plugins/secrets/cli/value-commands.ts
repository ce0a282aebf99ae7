import { apiRequest, readValue, resolveConnection, runCommand, type CommandDefinition } from '../../../core/kernel/cli/index.js';
import type { ListedValueView, SealedView } from '../routes.js';
import type { ValueKind } from '../scope.js';

const WORD: Readonly<Record<ValueKind, { readonly command: string; readonly path: string; readonly noun: string; readonly list: 'secrets' | 'variables' }>> = {
  secret: { command: 'secret', path: 'secrets', noun: 'secret', list: 'secrets' },
  var: { command: 'var', path: 'variables', noun: 'variable', list: 'variables' },
};

const scopeOptions = [
  { flags: '--repo <owner/repo>', description: 'a repository scope (default: global)' },
  { flags: '--env <environment>', description: 'an environment of the --repo repository' },
];

function text(options: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = options[key];
  return typeof value === 'string' ? value : undefined;
}

function scopeQuery(options: Readonly<Record<string, unknown>>): string {
  const query = new URLSearchParams();
  const repo = text(options, 'repo');
  const env = text(options, 'env');
  if (repo !== undefined) query.set('repo', repo);
  if (env !== undefined) query.set('env', env);
  const rendered = query.toString();
  return rendered === '' ? '' : `?${rendered}`;
}

function scopeWords(entry: { readonly repository: string | null; readonly environment: string | null }): string {
  if (entry.repository === null) return 'global';
  return entry.environment === null ? entry.repository : `${entry.repository} env:${entry.environment}`;
}

function setCommand(kind: ValueKind): CommandDefinition {
  const word = WORD[kind];
  return {
    name: `${word.command} set`,
    description: `set a ${word.noun} (PUT /api/v1/${word.path}/<NAME>); without --value it is read from a hidden prompt or stdin`,
    arguments: [{ name: 'NAME', description: `the ${word.noun} name (UPPER_SNAKE)`, required: true }],
    options: [...scopeOptions, { flags: '--value <value>', description: kind === 'secret' ? 'the value (stays in shell history: prefer the prompt or stdin)' : 'the value' }],
    run(args, options, context) {
      return runCommand(`${word.command} set`, context, async () => {
        const name = args[0] ?? '';
        const connection = await resolveConnection(context.env, process.cwd());
        const value = text(options, 'value') ?? (await readValue(`value of ${name}: `, context.stderr));
        await apiRequest(connection, 'PUT', `/api/v1/${word.path}/${encodeURIComponent(name)}${scopeQuery(options)}`, { value });
        context.stdout.write(`set ${word.noun} ${name} (${scopeWords({ repository: text(options, 'repo') ?? null, environment: text(options, 'env') ?? null })})\n`);
      });
    },
  };
}

function listCommand(kind: ValueKind): CommandDefinition {
  const word = WORD[kind];
  return {
    name: `${word.command} list`,
    description: `list ${word.list}${kind === 'secret' ? ' (names, scopes, update times; never values)' : ' with their values'}; with --repo, those that apply to it`,
    options: [scopeOptions[0] ?? { flags: '--repo <owner/repo>', description: '' }, { flags: '--json', description: 'print the API response' }],
    run(_args, options, context) {
      return runCommand(`${word.command} list`, context, async () => {
        const connection = await resolveConnection(context.env, process.cwd());
        const repo = text(options, 'repo');
        const body = (await (await apiRequest(connection, 'GET', `/api/v1/${word.path}${repo === undefined ? '' : `?repo=${encodeURIComponent(repo)}`}`)).json()) as Record<string, ListedValueView[]>;
        if (options['json'] === true) {
          context.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
          return;
        }
        const entries = body[word.list] ?? [];
        if (entries.length === 0) {
          context.stdout.write(`no ${word.list}\n`);
          return;
        }
        // Secrets: where each comes from; one shadowed by a source of higher precedence says so.
        const source = (entry: ListedValueView) => `${entry.source}${entry.in_effect ? '' : ' (shadowed)'}`;
        const rows = entries.map((entry) => [entry.name, scopeWords(entry), entry.updated_at, ...(kind === 'var' ? [entry.value ?? ''] : [source(entry)])]);
        const header = ['NAME', 'SCOPE', 'UPDATED', ...(kind === 'var' ? ['VALUE'] : ['SOURCE'])];
        const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
        const line = (cells: readonly string[]) => `${cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ')}\n`;
        context.stdout.write([header, ...rows].map(line).join(''));
      });
    },
  };
}

function removeCommand(kind: ValueKind): CommandDefinition {
  const word = WORD[kind];
  return {
    name: `${word.command} rm`,
    description: `delete a ${word.noun} (DELETE /api/v1/${word.path}/<NAME>)`,
    arguments: [{ name: 'NAME', description: `the ${word.noun} name`, required: true }],
    options: scopeOptions,
    run(args, options, context) {
      return runCommand(`${word.command} rm`, context, async () => {
        const name = args[0] ?? '';
        const connection = await resolveConnection(context.env, process.cwd());
        await apiRequest(connection, 'DELETE', `/api/v1/${word.path}/${encodeURIComponent(name)}${scopeQuery(options)}`);
        context.stdout.write(`deleted ${word.noun} ${name}\n`);
      });
    },
  };
}

/** `svc secret seal`: the server seals (only it holds the secrets key); prints the TOML to paste into the config file. */
const sealCommand: CommandDefinition = {
  name: 'secret seal',
  description: 'print a sealed [secrets] entry for the config file (POST /api/v1/secrets/<NAME>/seal); without --value it is read from a hidden prompt or stdin; nothing is stored',
  arguments: [{ name: 'NAME', description: 'the secret name (UPPER_SNAKE)', required: true }],
  options: [...scopeOptions, { flags: '--value <value>', description: 'the value (stays in shell history: prefer the prompt or stdin)' }],
  run(args, options, context) {
    return runCommand('secret seal', context, async () => {
      const name = args[0] ?? '';
      const connection = await resolveConnection(context.env, process.cwd());
      const value = text(options, 'value') ?? (await readValue(`value of ${name}: `, context.stderr));
      const sealed = (await (await apiRequest(connection, 'POST', `/api/v1/secrets/${encodeURIComponent(name)}/seal${scopeQuery(options)}`, { value })).json()) as SealedView;
      context.stdout.write(`${sealed.table}\n${sealed.line}\n`);
    });
  },
};

export const secretCommands: readonly CommandDefinition[] = [setCommand('secret'), listCommand('secret'), removeCommand('secret'), sealCommand];
export const varCommands: readonly CommandDefinition[] = [setCommand('var'), listCommand('var'), removeCommand('var')];

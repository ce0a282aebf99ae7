/**
 * Fix "runs-on-group-wording": the TypeScript converter misplaces a quote in its runs-on group
 * error (`'ent/org/g. Please use ... group.'`); GitHub writes `'ent/org/g'. Please use ... group.`
 */
const RUNS_ON_GROUP = /^Invalid runs-on group name '(.*)\. Please use 'organization\/' or 'enterprise\/' prefix to target a single runner group\.'$/s;

export function correctMessage(message: string): string {
  const group = RUNS_ON_GROUP.exec(message)?.[1];
  if (group !== undefined) {
    return `Invalid runs-on group name '${group}'. Please use 'organization/' or 'enterprise/' prefix to target a single runner group.`;
  }
  return message;
}

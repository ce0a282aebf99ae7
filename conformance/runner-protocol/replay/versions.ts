/**
 * Runner versions and the ranges scenarios and steps are written for (`>=2.336.0`,
 * `>=2.335.0 <2.337.0`): every comparator must hold. Runner releases are plain `major.minor.patch`.
 */
const VERSION = /^(\d+)\.(\d+)\.(\d+)$/;
const COMPARATOR = /(>=|<=|>|<|=)?\s*(\d+\.\d+\.\d+)/g;

export function parseVersion(text: string): readonly [number, number, number] {
  const match = VERSION.exec(text.trim());
  if (!match) throw new Error(`'${text}' is not a runner version (major.minor.patch)`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

export function compareVersions(a: string, b: string): number {
  const left = parseVersion(a);
  const right = parseVersion(b);
  for (let i = 0; i < 3; i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

export function satisfies(version: string, range: string): boolean {
  const comparators = [...range.matchAll(COMPARATOR)];
  if (comparators.length === 0) throw new Error(`'${range}' is not a version range`);
  return comparators.every(([, operator = '=', bound = '']) => {
    const order = compareVersions(version, bound);
    switch (operator) {
      case '>=':
        return order >= 0;
      case '<=':
        return order <= 0;
      case '>':
        return order > 0;
      case '<':
        return order < 0;
      default:
        return order === 0;
    }
  });
}

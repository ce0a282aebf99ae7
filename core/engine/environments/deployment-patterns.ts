/**
 * Deployment branch and tag name patterns, as GitHub matches them (Ruby's `File.fnmatch` with
 * `FNM_PATHNAME`): `*` and `?` do not match `/`, `**` matches across `/` (and `**` followed by `/`
 * matches zero or more whole segments), `[...]` is a character class (`[!...]`, `[^...]` negate),
 * `\` escapes the next character. The whole name must match.
 */
export function deploymentPatternMatches(pattern: string, name: string): boolean {
  return patternRegExp(pattern).test(name);
}

const cache = new Map<string, RegExp>();

function patternRegExp(pattern: string): RegExp {
  let compiled = cache.get(pattern);
  if (compiled === undefined) {
    compiled = new RegExp(`^${translate(pattern)}$`, 'u');
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, compiled);
  }
  return compiled;
}

function translate(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*') {
      if (pattern[i + 1] === '*') {
        i++;
        // `**/` matches zero or more whole segments; `**` elsewhere anything at all.
        if (pattern[i + 1] === '/') {
          i++;
          out += '(?:.*/)?';
        } else {
          out += '.*';
        }
      } else {
        out += '[^/]*';
      }
    } else if (char === '?') {
      out += '[^/]';
    } else if (char === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      out += `[${negated ? '^/' : ''}${body.replace(/[\\\]^]/g, (c) => `\\${c}`)}]`;
      i = end;
    } else if (char === '\\' && i + 1 < pattern.length) {
      i++;
      out += escape(pattern[i]!);
    } else {
      out += escape(char);
    }
  }
  return out;
}

function escape(char: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(char) ? `\\${char}` : char;
}

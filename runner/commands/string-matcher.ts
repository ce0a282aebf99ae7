/**
 * Finds every occurrence of many strings in one pass over a text (Aho–Corasick over UTF-16 code
 * units), reporting the union of the matched ranges. The masker needs exactly that: the runner
 * replaces each maximal run of overlapping or touching matches with one `***`, so only the longest
 * match ending at each position matters. Building costs O(total pattern length); a scan costs
 * O(text length), whatever the number of patterns.
 */

/** `edge` values: no child yet, or more than one (the node's children are in `branches`). */
const NONE = -1;
const MANY = -2;

export class MultiStringMatcher {
  /**
   * Transitions. Secrets make long single-child chains, so a node's only child is kept inline
   * (`edge` its code unit, `target` the child) and only branching nodes get a map. Everything
   * stays a small integer: one map keyed by node * 65536 + code unit went past V8's small
   * integers on a long token and made the first build of a job's masker cost tens of ms.
   */
  private readonly edge: number[] = [NONE];
  private readonly target: number[] = [0];
  private readonly branches = new Map<number, Map<number, number>>();
  private readonly fail: number[] = [0];
  /** Length of the longest pattern that ends at this node (itself or along its failure links). */
  private readonly longest: number[] = [0];
  private readonly depth: number[] = [0];

  constructor(patterns: Iterable<string>) {
    for (const pattern of patterns) if (pattern !== '') this.insert(pattern);
    this.link();
  }

  get empty(): boolean {
    return this.depth.length === 1;
  }

  private insert(pattern: string): void {
    let node = 0;
    for (let i = 0; i < pattern.length; i++) {
      const code = pattern.charCodeAt(i);
      let next = this.child(node, code);
      if (next === undefined) {
        next = this.depth.length;
        this.depth.push(this.depth[node]! + 1);
        this.fail.push(0);
        this.longest.push(0);
        this.edge.push(NONE);
        this.target.push(0);
        this.addChild(node, code, next);
      }
      node = next;
    }
    this.longest[node] = pattern.length;
  }

  private child(node: number, code: number): number | undefined {
    const edge = this.edge[node];
    if (edge === code) return this.target[node];
    if (edge === MANY) return this.branches.get(node)?.get(code);
    return undefined;
  }

  private addChild(node: number, code: number, child: number): void {
    const edge = this.edge[node]!;
    if (edge === NONE) {
      this.edge[node] = code;
      this.target[node] = child;
    } else if (edge === MANY) {
      this.branches.get(node)?.set(code, child);
    } else {
      this.branches.set(node, new Map([[edge, this.target[node]!], [code, child]]));
      this.edge[node] = MANY;
    }
  }

  private link(): void {
    const queue: number[] = [];
    const visit = (parent: number, code: number, child: number) => {
      if (parent !== 0) this.fail[child] = this.step(this.fail[parent]!, code);
      queue.push(child);
    };
    // Breadth first: a node's failure link is set before its children need it.
    for (let head = -1; head < queue.length; head++) {
      const node = head < 0 ? 0 : queue[head]!;
      if (this.longest[node] === 0) this.longest[node] = this.longest[this.fail[node]!]!;
      const edge = this.edge[node]!;
      if (edge >= 0) visit(node, edge, this.target[node]!);
      else if (edge === MANY) for (const [code, child] of this.branches.get(node) ?? []) visit(node, code, child);
    }
  }

  private step(from: number, code: number): number {
    let node = from;
    for (;;) {
      const next = this.child(node, code);
      if (next !== undefined) return next;
      if (node === 0) return 0;
      node = this.fail[node]!;
    }
  }

  /** Sorted, disjoint, non-touching [start, end) ranges covering every occurrence. */
  ranges(text: string): Array<[number, number]> {
    const result: Array<[number, number]> = [];
    if (this.empty) return result;
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      node = this.step(node, text.charCodeAt(i));
      const length = this.longest[node]!;
      if (length === 0) continue;
      let start = i + 1 - length;
      const end = i + 1;
      // Ends only grow, but a long match may reach back over earlier ranges: fold them in.
      while (result.length > 0 && result[result.length - 1]![1] >= start) {
        start = Math.min(start, result[result.length - 1]![0]);
        result.pop();
      }
      result.push([start, end]);
    }
    return result;
  }
}

/**
 * The same ranges as `MultiStringMatcher.ranges`, by one native search per pattern: no automaton
 * to build, which is what a job's first masked line would wait for (tens of ms for a job's
 * tokens and their encodings), and faster per text while the patterns are few.
 */
export function searchRanges(text: string, patterns: Iterable<string>): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const pattern of patterns) {
    if (pattern === '') continue;
    for (let at = text.indexOf(pattern); at >= 0; at = text.indexOf(pattern, at + 1)) found.push([at, at + pattern.length]);
  }
  if (found.length < 2) return found;
  found.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of found) {
    const last = merged[merged.length - 1];
    // Overlapping or touching occurrences make one range, as in the automaton's scan.
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/**
 * Finds every occurrence of many strings in one pass over a text (Aho–Corasick over UTF-16 code
 * units), reporting the union of the matched ranges. The masker needs exactly that: the runner
 * replaces each maximal run of overlapping or touching matches with one `***`, so only the longest
 * match ending at each position matters. Building costs O(total pattern length); a scan costs
 * O(text length), whatever the number of patterns.
 */

const ALPHABET = 0x10000;

export class MultiStringMatcher {
  /** Transitions keyed by node * 65536 + code unit: one map instead of one per node. */
  private readonly goto = new Map<number, number>();
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
      const key = node * ALPHABET + pattern.charCodeAt(i);
      let next = this.goto.get(key);
      if (next === undefined) {
        next = this.depth.length;
        this.depth.push(this.depth[node]! + 1);
        this.fail.push(0);
        this.longest.push(0);
        this.goto.set(key, next);
      }
      node = next;
    }
    this.longest[node] = pattern.length;
  }

  private link(): void {
    // Children of each node, gathered once so the breadth-first pass can walk them.
    const children: Array<Array<[number, number]>> = this.depth.map(() => []);
    for (const [key, child] of this.goto) children[Math.floor(key / ALPHABET)]!.push([key % ALPHABET, child]);
    const queue: number[] = [];
    for (const [, child] of children[0]!) queue.push(child);
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      const nodeLongest = this.longest[node]!;
      if (nodeLongest === 0) this.longest[node] = this.longest[this.fail[node]!]!;
      for (const [code, child] of children[node]!) {
        this.fail[child] = this.step(this.fail[node]!, code);
        queue.push(child);
      }
    }
  }

  private step(from: number, code: number): number {
    let node = from;
    for (;;) {
      const next = this.goto.get(node * ALPHABET + code);
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

import type { Writable } from 'node:stream';

/**
 * A block of lines redrawn in place at the bottom of a terminal: the cursor goes back up over
 * the previous frame, clears to the end of the screen and writes the new one.
 */
export interface LiveArea {
  draw(lines: readonly string[]): void;
  /** Clears the frame (before writing ordinary lines below where it was). */
  clear(): void;
}

export function liveArea(out: Writable): LiveArea {
  let drawn = 0;
  const up = () => (drawn > 0 ? `\x1b[${drawn}A\r\x1b[J` : '');
  return {
    draw(lines) {
      out.write(`${up()}${lines.map((line) => `${line}\n`).join('')}`);
      drawn = lines.length;
    },
    clear() {
      if (drawn > 0) out.write(up());
      drawn = 0;
    },
  };
}

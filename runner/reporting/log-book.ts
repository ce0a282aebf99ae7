/**
 * Each record's log as the runner's paging logger keeps it (§4.3): every line prefixed with the
 * UTC time in .NET's round-trip format and a space (`2026-08-21T10:15:03.2130000Z hello`),
 * counted, and cut into pages that close once they reach the page size (8 MiB) or when the
 * record's log ends. The book only collects; the reporter decides what to upload and when.
 */

/** The runner's page size. */
export const LOG_PAGE_BYTES = 8 * 1024 * 1024;

/** `DateTime.UtcNow.ToString("O")`: seven fractional digits and `Z`. */
export function logTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 23)}0000Z`;
}

export interface LogPage {
  readonly recordId: string;
  /** 1-based page number of the record's log. */
  readonly number: number;
  /** The page's lines, each ending with `\n`. */
  readonly content: string;
  readonly lineCount: number;
  /** The record's log ended with this page. */
  readonly last: boolean;
}

interface OpenLog {
  lines: string[];
  bytes: number;
  pages: number;
  total: number;
  /** When the open page's first line was written (ms). */
  openedAt: number;
}

export class LogBook {
  readonly #open = new Map<string, OpenLog>();
  readonly #pageBytes: number;
  readonly #onPage: (page: LogPage) => void;
  readonly #now: () => Date;

  constructor(options: {
    readonly onPage: (page: LogPage) => void;
    readonly now?: () => Date;
    readonly pageBytes?: number;
  }) {
    this.#onPage = options.onPage;
    this.#now = options.now ?? (() => new Date());
    this.#pageBytes = options.pageBytes ?? LOG_PAGE_BYTES;
  }

  /** Appends one line (already masked, without `\n`); answers its 1-based number in the record's log. */
  append(recordId: string, line: string): number {
    let log = this.#open.get(recordId);
    if (log === undefined) {
      log = { lines: [], bytes: 0, pages: 0, total: 0, openedAt: 0 };
      this.#open.set(recordId, log);
    }
    const now = this.#now();
    if (log.lines.length === 0) log.openedAt = now.getTime();
    const text = `${logTimestamp(now)} ${line}\n`;
    log.lines.push(text);
    log.bytes += Buffer.byteLength(text, 'utf8');
    log.total += 1;
    if (log.bytes >= this.#pageBytes) this.#closePage(recordId, log, false);
    return log.total;
  }

  /** Lines written to the record so far. */
  lineCount(recordId: string): number {
    return this.#open.get(recordId)?.total ?? 0;
  }

  /** Closes the record's log: its last page (possibly empty when nothing was written since) is handed on. */
  end(recordId: string): void {
    const log = this.#open.get(recordId);
    if (log === undefined) return;
    this.#closePage(recordId, log, true);
    this.#open.delete(recordId);
  }

  /**
   * Closes, without ending their logs, the open pages whose first line is at least
   * `maxAge(pagesSoFar)` ms old: a long step's lines reach the server while it runs.
   */
  closeAgedPages(maxAge: (pagesSoFar: number) => number): void {
    const now = this.#now().getTime();
    for (const [recordId, log] of this.#open) {
      if (log.lines.length > 0 && now - log.openedAt >= maxAge(log.pages)) this.#closePage(recordId, log, false);
    }
  }

  /** Ends every log still open (job end). */
  endAll(): void {
    for (const id of [...this.#open.keys()]) this.end(id);
  }

  #closePage(recordId: string, log: OpenLog, last: boolean): void {
    if (log.lines.length === 0) {
      // Nothing new: a log that had pages still needs its end marked (results seal the blob).
      if (last && log.pages > 0) this.#onPage({ recordId, number: log.pages + 1, content: '', lineCount: 0, last: true });
      return;
    }
    log.pages += 1;
    const page: LogPage = { recordId, number: log.pages, content: log.lines.join(''), lineCount: log.lines.length, last };
    log.lines = [];
    log.bytes = 0;
    this.#onPage(page);
  }
}

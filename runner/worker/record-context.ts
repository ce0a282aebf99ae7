/**
 * One timeline record and its log, as the runner's ExecutionContext keeps them: created
 * `pending`, started (`inProgress`, start time), completed (finish time, result, 100 %);
 * issues masked, cut at 4096 characters, at most 10 of each type on the record (the rest are
 * still logged), each tagged with the step number and, when logged, its log line number.
 */
import type { TaskResultName } from '../../core/protocol/index.js';
import type { AnnotationProperties } from '../handlers/index.js';
import type { IssueType, LogMasker, RecordIssue, Reporter, TimelineRecord } from '../reporting/index.js';

const MAX_ISSUES_PER_TYPE = 10;
const MAX_ISSUE_MESSAGE = 4096;

export interface RecordInit {
  readonly id: string;
  readonly parentId: string | null;
  readonly type: 'Job' | 'Task';
  readonly name: string;
  readonly refName: string;
  readonly order: number | null;
  readonly stepType?: string;
}

export interface IssueOptions {
  readonly properties?: AnnotationProperties;
  /** Write `##[<type>]<message>` into the log (default true). */
  readonly writeToLog?: boolean;
  /** The logged text instead of the message (a problem matcher logs the matched line). */
  readonly logMessage?: string;
  readonly category?: string;
}

export class RecordContext {
  readonly id: string;
  readonly order: number | null;
  #record: TimelineRecord;
  /** The result so far (undefined = not decided: completes as `succeeded`). */
  result: TaskResultName | undefined;
  readonly #reporter: Reporter;
  readonly #masker: LogMasker;
  readonly #debug: boolean;
  readonly #now: () => Date;

  constructor(init: RecordInit, deps: { readonly reporter: Reporter; readonly masker: LogMasker; readonly debug: boolean; readonly now: () => Date }) {
    this.id = init.id;
    this.order = init.order;
    this.#reporter = deps.reporter;
    this.#masker = deps.masker;
    this.#debug = deps.debug;
    this.#now = deps.now;
    this.#record = {
      ...init,
      state: 'pending',
      result: null,
      startTime: null,
      finishTime: null,
      percentComplete: 0,
      errorCount: 0,
      warningCount: 0,
      noticeCount: 0,
      issues: [],
    };
    this.#reporter.updateRecord(this.#record);
  }

  get name(): string {
    return this.#record.name;
  }

  get record(): TimelineRecord {
    return this.#record;
  }

  rename(name: string): void {
    if (name === '' || name === this.#record.name) return;
    this.#update({ name });
  }

  start(): void {
    this.#update({ state: 'inProgress', startTime: this.#now() });
  }

  /** Completes the record with `result` (or the result so far, `succeeded` when none). */
  complete(result?: TaskResultName, resultCode?: string): TaskResultName {
    if (result !== undefined) this.result = result;
    const final = this.result ?? 'succeeded';
    this.#update({
      state: 'completed',
      result: final,
      finishTime: this.#now(),
      startTime: this.#record.startTime ?? this.#now(),
      percentComplete: 100,
      ...(resultCode === undefined ? {} : { resultCode }),
    });
    this.#reporter.endLog(this.id);
    return final;
  }

  /** Writes a line (masked by the reporter); answers its line number. */
  write(line: string): number {
    return this.#reporter.appendLog(this.id, line);
  }

  debug(message: string): void {
    if (this.#debug) this.write(`##[debug]${message}`);
  }

  error(message: string, properties?: AnnotationProperties): void {
    this.addIssue('error', message, properties === undefined ? {} : { properties });
  }

  warning(message: string, properties?: AnnotationProperties): void {
    this.addIssue('warning', message, properties === undefined ? {} : { properties });
  }

  notice(message: string, properties?: AnnotationProperties): void {
    this.addIssue('notice', message, properties === undefined ? {} : { properties });
  }

  addIssue(type: IssueType, message: string, options: IssueOptions = {}): void {
    let text = this.#masker.mask(message);
    if (text.length > MAX_ISSUE_MESSAGE) text = text.slice(0, MAX_ISSUE_MESSAGE);
    const data: Record<string, string> = {};
    const p = options.properties ?? {};
    if (p.file !== undefined) data['file'] = p.file;
    if (p.line !== undefined) data['line'] = String(p.line);
    if (p.col !== undefined) data['col'] = String(p.col);
    if (p.endLine !== undefined) data['endLine'] = String(p.endLine);
    if (p.endColumn !== undefined) data['endColumn'] = String(p.endColumn);
    if (p.title !== undefined) data['title'] = p.title;
    if (this.order !== null) data['stepNumber'] = String(this.order);
    if (options.writeToLog !== false) {
      const logged = options.logMessage ?? text;
      if (logged !== '') data['logFileLineNumber'] = String(this.write(`##[${type}]${logged}`));
    }
    const count = this.#count(type);
    if (count >= MAX_ISSUES_PER_TYPE) return;
    const issue: RecordIssue = { type, message: text, category: options.category ?? 'General', data };
    this.#update({ issues: [...this.#record.issues, issue], [`${type}Count`]: count + 1 } as Partial<TimelineRecord>);
  }

  #count(type: IssueType): number {
    return type === 'error' ? this.#record.errorCount : type === 'warning' ? this.#record.warningCount : this.#record.noticeCount;
  }

  #update(changes: Partial<TimelineRecord>): void {
    this.#record = { ...this.#record, ...changes };
    this.#reporter.updateRecord(this.#record);
  }
}

/**
 * The replay corpus format, as the loader hands it to the interpreter (scenario-schema.ts is the
 * JSON Schema every file is checked against first). A scenario is the ordered exchanges the
 * official runner makes in one situation, with what it requires of each answer.
 */
/** JSON as `JSON.parse` returns it (mutable: the interpreter's variables are built up step by step). */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/**
 * Runs a step only for some runner versions (`runners: ">=2.336.0"`), and/or only when a value the
 * runner holds says so (`if: "{{jobRef.should_acknowledge}}"`: true, or a string other than
 * "", "false", "0"; or `if: "{{a}} == text"`, `!=`: both sides compared as text).
 */
export interface When {
  readonly runners?: string;
  readonly if?: string;
}

export interface Conditional {
  readonly when?: When;
}

export type BodySpec =
  | { readonly json: JsonValue }
  | { readonly form: Readonly<Record<string, JsonValue>> }
  | { readonly text: string }
  /** A log page as the Worker uploads it: UTF-8 BOM, each line prefixed with a round-trip UTC time (`at`, default now). */
  | { readonly logPage: { readonly lines: JsonValue; readonly at?: JsonValue } }
  /** Timeline records as the Worker's queue sends them: every member the runner serializes, wrapped. */
  | { readonly records: JsonValue }
  /** A tar of `{path: content}` (the operator's snapshot upload). */
  | { readonly tar: JsonValue };

export interface RequestSpec {
  readonly method: string;
  /** An absolute URL. */
  readonly url?: string;
  /** A VSS base URL (with `location`) or a raw client's base (with `path`, RFC 3986 resolution). */
  readonly base?: string;
  /** A location name of locations.json or a GUID, resolved through the base's connectionData. */
  readonly location?: string;
  /** Route values for the location's template; a list is merged in order. */
  readonly route?: JsonValue;
  /** A raw client's relative path, resolved against `base` (RFC 3986: the base must end with `/`). */
  readonly path?: string;
  /** A fixed VSS path appended to `base` the VSS way (trailing `/` trimmed, then `/`): connectionData. */
  readonly vssPath?: string;
  readonly query?: Readonly<Record<string, JsonValue>>;
  readonly headers?: Readonly<Record<string, JsonValue>>;
  readonly body?: BodySpec;
  /** Follow redirects (archive downloads: the runner's client does). */
  readonly followRedirects?: boolean;
}

export interface BodyExpectation {
  /** `true`: the answer must be empty (no message); `allowed`: empty passes, anything else is checked. */
  readonly empty?: true | 'allowed';
  /** How the body is read; `archive`: a tar(.gz) read into its entry names. */
  readonly format?: 'json' | 'ndjson' | 'text' | 'archive';
  /** A VSS list: `{count, value}` with count = the number of values (checked before `schema`). */
  readonly wrapped?: boolean;
  readonly schema?: JsonObject;
  readonly match?: JsonValue;
  /** The runner's deserializer ignores unknown members (the default); `fail` makes them a failure. */
  readonly unknownFields?: 'ignore' | 'fail';
}

export interface Expectation {
  readonly status?: number | readonly number[];
  readonly headers?: Readonly<Record<string, JsonValue>>;
  readonly body?: BodyExpectation;
  readonly elapsedMs?: { readonly min?: JsonValue; readonly max?: JsonValue };
}

export interface ExchangeStep extends Conditional {
  readonly name: string;
  readonly request: RequestSpec;
  readonly expect?: Expectation;
  /** Variable name → path into `{status, headers, body, elapsedMs}`. */
  readonly capture?: Readonly<Record<string, string>>;
  /** A long poll: asked again while the answer is empty (2xx without a body), within the budget. */
  readonly repeat?: { readonly whileEmpty: true; readonly budgetMs: number };
  /** Retried until the expectation holds, within the budget (state the server reaches asynchronously). */
  readonly eventually?: { readonly budgetMs: number; readonly intervalMs?: number };
  /** Sent without waiting; `await: <id>` takes the answer later (a held poll while something else happens). */
  readonly background?: string;
}

export interface IncludeStep extends Conditional {
  readonly include: string;
  /** Variables set before the fragment's steps. */
  readonly with?: Readonly<Record<string, JsonValue>>;
}

export interface SetStep extends Conditional {
  readonly set: Readonly<Record<string, JsonValue>>;
}

export type DeriveKind = 'rsaKey' | 'clientAssertion' | 'sessionKey' | 'decryptMessage' | 'parseJson' | 'jwtClaims' | 'jitConfig' | 'merge' | 'base64'
  | 'sha256' | 'url' | 'regex' | 'verifyJwt';

export interface DeriveStep extends Conditional {
  readonly derive: DeriveKind;
  readonly as: string;
  readonly with?: Readonly<Record<string, JsonValue>>;
}

export interface AwaitStep extends Conditional {
  readonly await: string;
}

export interface SleepStep extends Conditional {
  readonly sleep: JsonValue;
}

/** A check of values the runner already holds (a captured body, a decrypted message), as it reads them. */
export interface AssertStep extends Conditional {
  readonly assert: string;
  readonly value: JsonValue;
  readonly schema?: JsonObject;
  readonly match?: JsonValue;
}

export type StepSpec = ExchangeStep | IncludeStep | SetStep | DeriveStep | AwaitStep | SleepStep | AssertStep;

/** Steps after fragments are expanded: no includes. */
export type FlatStep = Exclude<StepSpec, IncludeStep>;

export interface ScenarioFile {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** The runner versions this definition holds for. */
  readonly runners: string;
  /** The in-process host profile (corpus.yaml `servers`). */
  readonly server: string;
  /** Files of actions/runner the exchanges were read from (corpus.yaml `upstream`). */
  readonly sources: readonly string[];
  /** Left out of the count for a defect of the corpus itself (never a missing server feature). */
  readonly quarantined?: string;
  readonly vars?: Readonly<Record<string, JsonValue>>;
  /** The snapshot submitted when the scenario needs a job: the workflow file and anything it reads. */
  readonly workflow?: { readonly path: string; readonly files: Readonly<Record<string, string>> };
  readonly steps: readonly StepSpec[];
  /** Semantic checks through the operator API once the runner's exchanges are done. */
  readonly checks?: readonly ExchangeStep[];
}

export interface FragmentFile {
  readonly name: string;
  readonly description: string;
  /** Variables the fragment reads that it does not set itself. */
  readonly requires?: readonly string[];
  readonly steps: readonly StepSpec[];
}

export interface ServerProfile {
  readonly description: string;
  /** Host environment (`SVC_RUNNER_FLOW`, ...). */
  readonly env?: Readonly<Record<string, string>>;
  /** Runner-protocol timings (poll hold, session lease, ...), in-process hosts only. */
  readonly timings?: Readonly<Record<string, number>>;
  /** Publish the server under this host name (`*.localhost`, resolved to loopback) instead of 127.0.0.1. */
  readonly publicHost?: string;
  /** Repositories the server's action mirror holds (SVC_ACTIONS_MIRROR_DIR). */
  readonly mirror?: Readonly<Record<string, { readonly ref: string; readonly files: Readonly<Record<string, string>> }>>;
}

export interface CorpusFile {
  /** The runner release the definitions were written against (versions.toml replay_corpus_runner_version). */
  readonly recordedAgainst: string;
  /** Headers every exchange carries unless it sets its own. */
  readonly headers: Readonly<Record<string, string>>;
  /** The timings a server started by `svc serve` uses (what a remote target is assumed to run with). */
  readonly defaultTimings: Readonly<Record<string, number>>;
  readonly servers: Readonly<Record<string, ServerProfile>>;
  /** actions/runner files the corpus may cite. */
  readonly upstream: readonly string[];
  /** Every member of a timeline record the runner serializes, with its default (`records:` bodies). */
  readonly recordDefaults: JsonObject;
}

/** A scenario ready to run: fragments expanded, checked. */
export interface Scenario {
  readonly file: string;
  readonly definition: ScenarioFile;
  readonly steps: readonly FlatStep[];
  readonly checks: readonly ExchangeStep[];
  /** Why the corpus itself is not fit to replay this one (integrity checks or the file's own mark). */
  readonly quarantined?: string;
}

export interface Corpus {
  readonly root: string;
  readonly settings: CorpusFile;
  readonly locations: Readonly<Record<string, string>>;
  readonly scenarios: readonly Scenario[];
  /** Problems that make the corpus unusable as a whole (a bad file, a missing fragment). */
  readonly errors: readonly string[];
}

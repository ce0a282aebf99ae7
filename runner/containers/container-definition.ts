/**
 * A job container or service container as the workflow defines it (`jobs.<id>.container`,
 * `jobs.<id>.services.<name>`), read from the evaluated template value: a bare string is the
 * image; a mapping has `image`, `options`, `env`, `ports`, `volumes`, `credentials`. An empty
 * image means "no container" (the runner skips it: a matrix may blank it out).
 */

export interface ContainerCredentials {
  readonly username: string;
  readonly password: string;
}

export interface ContainerDefinition {
  readonly image: string;
  /** Extra `docker create` options, split as the runner's command line splits them. */
  readonly options: string;
  readonly env: Readonly<Record<string, string>>;
  readonly ports: readonly string[];
  readonly volumes: readonly string[];
  readonly credentials?: ContainerCredentials;
}

/** The error of a definition the runner cannot use (a template value of the wrong shape). */
export class ContainerDefinitionError extends Error {
  override readonly name = 'ContainerDefinitionError';
}

type Plain = Record<string, unknown>;

function isPlain(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function member(object: Plain, key: string): unknown {
  for (const [name, value] of Object.entries(object)) if (name.toLowerCase() === key) return value;
  return undefined;
}

function text(value: unknown, where: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new ContainerDefinitionError(`${where}: a string was expected`);
}

function strings(value: unknown, where: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ContainerDefinitionError(`${where}: a sequence was expected`);
  return value.map((item, index) => text(item, `${where}[${index}]`)).filter((item) => item !== '');
}

/** A container definition from its evaluated value; undefined when it names no image. */
export function containerDefinitionOf(value: unknown, where: string): ContainerDefinition | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : { image: value.trim(), options: '', env: {}, ports: [], volumes: [] };
  if (!isPlain(value)) throw new ContainerDefinitionError(`${where}: a string or a mapping was expected`);
  const image = text(member(value, 'image'), `${where}.image`).trim();
  if (image === '') return undefined;
  const env: Record<string, string> = {};
  const envValue = member(value, 'env');
  if (envValue !== undefined && envValue !== null) {
    if (!isPlain(envValue)) throw new ContainerDefinitionError(`${where}.env: a mapping was expected`);
    for (const [name, item] of Object.entries(envValue)) env[name] = text(item, `${where}.env.${name}`);
  }
  const credentialsValue = member(value, 'credentials');
  let credentials: ContainerCredentials | undefined;
  if (credentialsValue !== undefined && credentialsValue !== null) {
    if (!isPlain(credentialsValue)) throw new ContainerDefinitionError(`${where}.credentials: a mapping was expected`);
    const username = text(member(credentialsValue, 'username'), `${where}.credentials.username`);
    const password = text(member(credentialsValue, 'password'), `${where}.credentials.password`);
    if (username !== '' && password !== '') credentials = { username, password };
  }
  return {
    image,
    options: text(member(value, 'options'), `${where}.options`),
    env,
    ports: strings(member(value, 'ports'), `${where}.ports`),
    volumes: strings(member(value, 'volumes'), `${where}.volumes`),
    ...(credentials === undefined ? {} : { credentials }),
  };
}

/** The services of a job by name (their network alias), in definition order; blank images left out. */
export function serviceDefinitionsOf(value: unknown): Map<string, ContainerDefinition> {
  const services = new Map<string, ContainerDefinition>();
  if (value === undefined || value === null) return services;
  if (!isPlain(value)) throw new ContainerDefinitionError('services: a mapping was expected');
  for (const [name, item] of Object.entries(value)) {
    const definition = containerDefinitionOf(item, `services.${name}`);
    if (definition !== undefined) services.set(name, definition);
  }
  return services;
}

/**
 * The registry of an image (for `docker login`): the first path component when it looks like a
 * host (has a `.` or a `:`, or is `localhost`); empty for Docker Hub.
 */
export function registryOf(image: string): string {
  const slash = image.indexOf('/');
  if (slash < 0) return '';
  const first = image.slice(0, slash);
  return first.includes('.') || first.includes(':') || first === 'localhost' ? first : '';
}

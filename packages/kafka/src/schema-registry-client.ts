import { CrawlerError, errorMessage, ErrorCode } from '@crawler/core';

/**
 * A schema registry refused or failed a call. `SCHEMA_INCOMPATIBLE` (a schema the subject's
 * compatibility rule forbids) and `SCHEMA_REGISTRY_REFUSED` are final; an unreachable registry or
 * a 5xx is retriable.
 */
export class SchemaRegistryError extends CrawlerError {
  constructor(code: Extract<ErrorCode, `SCHEMA_${string}`>, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
  }
}

/** The calls the crawler makes on a registry that speaks the Confluent Schema Registry REST API. */
export interface SchemaRegistryClient {
  /** Registers an Avro schema under a subject (or finds it there) and returns its schema id. */
  register(subject: string, schema: string): Promise<number>;
  /** The schema id of a schema already under the subject, or null when it is not there. */
  lookup(subject: string, schema: string): Promise<number | null>;
  setCompatibility(subject: string, level: 'BACKWARD'): Promise<void>;
  /** The schema text behind an id. */
  schemaById(id: number): Promise<string>;
}

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

/**
 * Plain `fetch` against the registry's base URL (Apicurio: `.../apis/ccompat/v6`). Credentials in
 * the URL become a basic Authorization header, since fetch refuses URLs that carry them.
 */
export function createSchemaRegistryClient(baseUrl: string, timeoutMs = 10_000): SchemaRegistryClient {
  const url = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  const headers: Record<string, string> = { accept: CONTENT_TYPE, 'content-type': CONTENT_TYPE };
  if (url.username || url.password) {
    const user = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.authorization = `Basic ${Buffer.from(user).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  const where = url.origin + url.pathname;

  async function call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    let response: Response;
    try {
      response = await fetch(new URL(path, url), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      throw new SchemaRegistryError(
        ErrorCode.SCHEMA_REGISTRY_UNAVAILABLE,
        `schema registry at ${where} did not answer ${method} ${path}: ${errorMessage(cause)}`,
        { cause },
      );
    }
    const text = await response.text();
    let json: Record<string, unknown>;
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      json = { message: text.slice(0, 300) };
    }
    if (response.status >= 500)
      throw new SchemaRegistryError(
        ErrorCode.SCHEMA_REGISTRY_UNAVAILABLE,
        `schema registry at ${where} failed ${method} ${path}: HTTP ${response.status} ${String(json.message ?? '')}`,
      );
    return { status: response.status, json };
  }

  const subjectPath = (subject: string) => `subjects/${encodeURIComponent(subject)}`;
  const refused = (what: string, status: number, json: Record<string, unknown>) =>
    new SchemaRegistryError(
      status === 409 ? ErrorCode.SCHEMA_INCOMPATIBLE : ErrorCode.SCHEMA_REGISTRY_REFUSED,
      `${what}: HTTP ${status} ${String(json.message ?? JSON.stringify(json))}`,
    );

  return {
    async register(subject, schema) {
      const { status, json } = await call('POST', `${subjectPath(subject)}/versions`, { schema });
      if (status !== 200 || typeof json.id !== 'number')
        throw refused(`schema registry at ${where} refused a schema for ${subject}`, status, json);
      return json.id;
    },
    async lookup(subject, schema) {
      const { status, json } = await call('POST', subjectPath(subject), { schema });
      if (status === 404) return null;
      if (status !== 200 || typeof json.id !== 'number')
        throw refused(`schema registry at ${where} could not look up a schema of ${subject}`, status, json);
      return json.id;
    },
    async setCompatibility(subject, level) {
      const { status, json } = await call('PUT', `config/${encodeURIComponent(subject)}`, { compatibility: level });
      if (status !== 200)
        throw refused(`schema registry at ${where} refused ${level} compatibility for ${subject}`, status, json);
    },
    async schemaById(id) {
      const { status, json } = await call('GET', `schemas/ids/${id}`);
      if (status !== 200 || typeof json.schema !== 'string')
        throw refused(`schema registry at ${where} has no schema ${id}`, status, json);
      return json.schema;
    },
  };
}

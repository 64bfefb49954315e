import { GENERIC, type ApiErrorBody, type FailureLike } from '@versus/domain';

/** A failed call, whatever the cause: an error answer from the server, a network failure, a timeout. */
export class ApiError extends Error implements FailureLike {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;

  constructor(status: number, code: string, message: string, field?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }

  get isNetwork(): boolean {
    return this.code === 'network';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Bearer access token. */
  token?: string | null;
  signal?: AbortSignal;
  /** Abort after this long (default 15 s). */
  timeoutMs?: number;
  /** Sent as Idempotency-Key: a money-moving request retried with it moves nothing twice. */
  idempotencyKey?: string;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/** One HTTP exchange with the Versus server: JSON in, JSON out, every failure an ApiError. */
export async function send(path: string, options: RequestOptions = {}): Promise<Response> {
  const headers = new Headers({ accept: 'application/json' });
  if (options.body !== undefined) headers.set('content-type', 'application/json');
  if (options.token) headers.set('authorization', `Bearer ${options.token}`);
  if (options.idempotencyKey) headers.set('idempotency-key', options.idempotencyKey);

  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    return await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && (error.name === 'TimeoutError' || (error.name === 'AbortError' && timeout.aborted))) {
      throw new ApiError(0, 'timeout', GENERIC.timeout);
    }
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', GENERIC.network);
  }
}

/** Reads an error answer into an ApiError, keeping the server's code, message and field. */
export async function errorFrom(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    // Not JSON (a proxy's HTML page, an empty body): fall back to the generic text below.
    body = { parseError: String(error) };
  }
  if (isApiErrorBody(body)) {
    const { code, message, field } = body.error;
    return new ApiError(response.status, code, message, field);
  }
  return new ApiError(response.status, `http_${response.status}`, response.statusText || GENERIC.other);
}

function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = value.error;
  return typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string';
}

/** Anything that validates like a zod schema (the shared schemas in @versus/domain). */
export interface Schema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: { issues: unknown } };
}

/** A schema, or a function that picks (and may load) one, so the auth calls load zod only for a session. */
export type SchemaFor<T> = Schema<T> | ((data: unknown) => Schema<T> | Promise<Schema<T>>);

/** Parses a successful answer with its schema; a shape we did not expect is an error, not a crash later. */
export async function parse<T>(response: Response, schemaFor: SchemaFor<T>): Promise<T> {
  let json: unknown;
  try {
    json = await response.json();
  } catch (error) {
    console.error('Response is not JSON', response.url, error);
    throw new ApiError(response.status, 'bad_response', GENERIC.other);
  }
  const schema = typeof schemaFor === 'function' ? await schemaFor(json) : schemaFor;
  const result = schema.safeParse(json);
  if (!result.success) {
    console.error('Unexpected response shape', response.url, result.error.issues);
    throw new ApiError(response.status, 'bad_response', GENERIC.other);
  }
  return result.data;
}

/** send + status check + parse. */
export async function requestJson<T>(path: string, schema: SchemaFor<T>, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options);
  if (!response.ok) throw await errorFrom(response);
  return parse(response, schema);
}

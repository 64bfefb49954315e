import type { FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type ZodFastifySchemaValidationError } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { GENERIC } from '@versus/domain';
import { badRequest } from './errors.ts';

/** Words the first problem with a request; `field` is its dotted path, when it has one. */
export type Wording = (field: string | undefined, message: string) => string;

const byField: Wording = (field, message) => `${field ?? 'request'}: ${message}`;

/** With `attachValidation`: the first problem as a 400 `invalid_input`, worded by the route (SPEC's text where it has one). */
export function rejectInvalid(request: FastifyRequest, wording: Wording = byField): void {
  const error = request.validationError;
  if (!error) return;
  const problems = zodProblems(error);
  if (problems) {
    const [first] = problems;
    const field = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') || undefined;
    throw badRequest('invalid_input', wording(field, first?.message ?? GENERIC.other), field);
  }
  throw badRequest('invalid_input', error.message);
}

/** The guard on Fastify's error leaves `validation` as its `any`; from `unknown` it narrows to zod's problems. */
function zodProblems(error: unknown): ZodFastifySchemaValidationError[] | undefined {
  return hasZodFastifySchemaValidationErrors(error) ? error.validation : undefined;
}

/** A uuid in its text form (ids from paths and bodies are checked before they reach SQL). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `value` (missing: `{}`) parsed by `schema`, or its first problem as a 400 `invalid_input` on the field. */
export function parseOrReject<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || undefined;
    throw badRequest('invalid_input', `${field ?? 'body'}: ${issue?.message ?? 'invalid'}`, field);
  }
  return parsed.data;
}

import { z } from 'zod';

/** A refusal the user should read: its status is 4xx and its message comes from the catalogue. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (code: string, message: string, field?: string) => new AppError(400, code, message, field);
export const unauthorized = (message: string) => new AppError(401, 'unauthorized', message);
export const forbidden = (message: string) => new AppError(403, 'forbidden', message);
export const notFound = (message: string) => new AppError(404, 'not_found', message);
export const conflict = (code: string, message: string, field?: string) => new AppError(409, code, message, field);

/** The body of every refusal, `{error: {code, message, field?}}`, for the routes' OpenAPI schemas. */
export const apiErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});

/** Response schemas for the refusals a route can answer: `errorResponses(400, 401)`. */
export const errorResponses = (...statuses: number[]) => Object.fromEntries(statuses.map((status) => [status, apiErrorSchema]));

// The auth answers' schemas, loaded on demand by auth.ts.
import { authResponseSchema } from '@versus/domain/auth';

export { authResponseSchema };
export const userResponseSchema = authResponseSchema.pick({ user: true });
export const userUpdateResponseSchema = authResponseSchema.partial({ session: true });

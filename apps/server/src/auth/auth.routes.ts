// Sign-in, registration, sessions and profiles over HTTP. Each route parses with the shared
// schema and calls the service; the refresh token travels only in an httpOnly cookie.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  SESSION,
  authResponseSchema,
  profileResponseSchema,
  sessionResponseSchema,
  signInRequestSchema,
  signUpRequestSchema,
  updateProfileRequestSchema,
  updateUserRequestSchema,
  updateUserResponseSchema,
  userResponseSchema,
} from '@versus/domain';
import type { App, AppContext } from '../context.ts';
import { apiErrorSchema, AppError } from '../http/errors.ts';
import { refuseCrossSite } from '../http/same-origin.ts';
import { installAuth, requireSession, signedInOnly } from './auth.plugin.ts';
import * as service from './auth.service.ts';

export const REFRESH_COOKIE = 'versus_refresh';

const bearer = [{ bearer: [] }];

/** The auth feature: the bearer-token hook, /api/auth/* (also under the /auth/* proxy prefix) and /api/profiles/:id. */
export function authFeature(app: App, ctx: AppContext): void {
  installAuth(app, ctx);
  authRoutes(app, ctx, '/api/auth', false);
  // SPEC §7 proxy fallback: the same handlers under a same-origin prefix, left out of the API docs.
  authRoutes(app, ctx, '/auth', true);
  profileRoutes(app, ctx);
}

/** Secure whenever the request came over HTTPS (directly, or per a proxy TRUST_PROXY names), or SECURE_COOKIES says so. */
const secureCookie = (request: FastifyRequest, ctx: AppContext) => ctx.config.secureCookies || request.protocol === 'https';

function setRefreshCookie(request: FastifyRequest, reply: FastifyReply, ctx: AppContext, token: string): void {
  reply.setCookie(REFRESH_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: secureCookie(request, ctx),
    path: '/',
    maxAge: SESSION.refreshTokenTtlDays * 24 * 60 * 60,
  });
}

function clearRefreshCookie(request: FastifyRequest, reply: FastifyReply, ctx: AppContext): void {
  reply.clearCookie(REFRESH_COOKIE, { httpOnly: true, sameSite: 'strict', secure: secureCookie(request, ctx), path: '/' });
}

function authRoutes(app: App, ctx: AppContext, base: string, hide: boolean): void {
  const tags = ['auth'];

  app.post(
    `${base}/signup`,
    {
      schema: {
        hide,
        tags,
        summary: 'Create an account (18+) and sign in',
        description:
          'Limited per address and over the whole site (429 with Retry-After); a password among the most common ' +
          'ones is refused (400, field password).',
        body: signUpRequestSchema,
        response: {
          201: authResponseSchema,
          400: apiErrorSchema,
          403: apiErrorSchema,
          409: apiErrorSchema,
          429: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { refreshToken, ...result } = await service.signUp(ctx, request.body, request.ip);
      setRefreshCookie(request, reply, ctx, refreshToken);
      return reply.status(201).send(result);
    },
  );

  app.post(
    `${base}/signin`,
    {
      schema: {
        hide,
        tags,
        summary: 'Sign in with email and password',
        description: 'Also stores the chosen account type in the profile. Limited per account and per address.',
        body: signInRequestSchema,
        response: { 200: authResponseSchema, 400: apiErrorSchema, 401: apiErrorSchema, 429: apiErrorSchema, 503: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const { refreshToken, ...result } = await service.signIn(ctx, request.body, request.ip);
      setRefreshCookie(request, reply, ctx, refreshToken);
      return result;
    },
  );

  app.post(
    `${base}/refresh`,
    {
      onRequest: refuseCrossSite,
      schema: {
        hide,
        tags,
        summary: 'Trade the refresh cookie for a new session (the cookie rotates)',
        response: { 200: authResponseSchema, 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (request, reply) => {
      try {
        const { refreshToken, ...result } = await service.refresh(ctx, request.cookies[REFRESH_COOKIE]);
        setRefreshCookie(request, reply, ctx, refreshToken);
        return result;
      } catch (error) {
        if (error instanceof AppError && !(error instanceof service.RefreshRaceLostError)) clearRefreshCookie(request, reply, ctx);
        throw error;
      }
    },
  );

  app.post(
    `${base}/signout`,
    {
      onRequest: refuseCrossSite,
      schema: { hide, tags, summary: 'End this session (every token of its family)', response: { 204: z.null(), 403: apiErrorSchema } },
    },
    async (request, reply) => {
      await service.signOut(ctx, request.cookies[REFRESH_COOKIE], request.versusAuth?.access ?? null);
      clearRefreshCookie(request, reply, ctx);
      return reply.status(204).send(null);
    },
  );

  app.get(
    `${base}/session`,
    {
      onRequest: refuseCrossSite,
      schema: {
        hide,
        tags,
        summary: 'The current session: from the bearer token, else from the refresh cookie (rotating it)',
        security: [...bearer, {}],
        response: { 200: sessionResponseSchema, 403: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const auth = request.versusAuth;
      if (auth?.access) {
        const current = await service.sessionFromAccessToken(ctx, auth.token, auth.access);
        if (current) return current;
      }
      const cookie = request.cookies[REFRESH_COOKIE];
      if (!cookie) return { user: null, session: null };
      try {
        const { refreshToken, ...result } = await service.refresh(ctx, cookie);
        setRefreshCookie(request, reply, ctx, refreshToken);
        return result;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        // An expired or revoked cookie simply means signed out (a lost race keeps the cookie:
        // the browser may hold the winner's new one by now).
        if (!(error instanceof service.RefreshRaceLostError)) clearRefreshCookie(request, reply, ctx);
        return { user: null, session: null };
      }
    },
  );

  app.get(
    `${base}/user`,
    {
      onRequest: signedInOnly,
      schema: { hide, tags, summary: 'The signed-in user', security: bearer, response: { 200: userResponseSchema, 401: apiErrorSchema } },
    },
    async (request) => ({ user: await service.getUser(ctx, requireSession(request)) }),
  );

  app.patch(
    `${base}/user`,
    {
      onRequest: signedInOnly,
      schema: {
        hide,
        tags,
        summary: 'Change account type, username, display name or avatar',
        description: 'Answers a new session too when the account type changed (the access token carries it).',
        security: bearer,
        body: updateUserRequestSchema,
        response: { 200: updateUserResponseSchema, 400: apiErrorSchema, 401: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    async (request) => service.updateUser(ctx, requireSession(request), request.body),
  );
}

function profileRoutes(app: App, ctx: AppContext): void {
  const tags = ['profiles'];
  const params = z.object({ id: z.string().uuid('Profile id must be a UUID') });

  app.get(
    '/api/profiles/:id',
    {
      onRequest: signedInOnly,
      schema: {
        tags,
        summary: "A player's public profile",
        security: bearer,
        params,
        response: { 200: profileResponseSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => ({ profile: await service.getPublicProfile(ctx, request.params.id) }),
  );

  app.patch(
    '/api/profiles/:id',
    {
      onRequest: signedInOnly,
      schema: {
        tags,
        summary: 'Change your own profile',
        security: bearer,
        params,
        body: updateProfileRequestSchema,
        response: {
          200: updateUserResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          409: apiErrorSchema,
        },
      },
    },
    async (request) => service.updateProfile(ctx, requireSession(request), request.params.id, request.body),
  );
}

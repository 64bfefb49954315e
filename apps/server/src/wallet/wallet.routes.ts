// The wallet, the admin ledger endpoints and the weekly-VTokens job; every route touches only the signed-in
// user's money, but admins grant to others and read the audit.
import {
  adminGrantRequestSchema,
  balanceViewSchema,
  creditsRequestSchema,
  creditsResultSchema,
  ledgerAuditSchema,
  walletTransactionsQuerySchema,
  walletTransactionsSchema,
} from '@versus/domain/wallet';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../context.ts';
import { requireRole, requireUser, signedInOnly } from '../auth/auth.plugin.ts';
import { scheduleJob } from '../jobs/scheduler.ts';
import { auditLedger } from '../ledger/ledger.audit.ts';
import { getBalanceView, getTransactions, runWeeklyResets } from '../ledger/ledger.service.ts';
import * as wallet from './wallet.service.ts';
import { apiErrorSchema } from '../http/errors.ts';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };
const security = [{ bearer: [] }];

async function adminOnly(request: FastifyRequest): Promise<void> {
  requireRole(request, 'admin');
}

export const WEEKLY_RESET_JOB = 'ledger.weekly-virtual-reset';

export function walletFeature(app: App, ctx: AppContext): void {
  const tags = ['wallet'];

  app.get(
    '/api/wallet/balance',
    {
      onRequest: signedInOnly,
      schema: {
        tags,
        security,
        summary: "The signed-in user's balance (SPEC §3 Balance)",
        response: { 200: balanceViewSchema, ...errors },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      return ctx.db.transaction((tx) => getBalanceView(tx, userId));
    },
  );

  app.get(
    '/api/wallet/transactions',
    {
      onRequest: signedInOnly,
      schema: {
        tags,
        security,
        summary: "The signed-in user's transfers, newest first",
        querystring: walletTransactionsQuerySchema,
        response: { 200: walletTransactionsSchema, ...errors },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      return getTransactions(ctx.db, userId, request.query);
    },
  );

  app.post(
    '/api/wallet/credits/add',
    {
      onRequest: signedInOnly,
      schema: {
        tags,
        security,
        summary: 'Add credits to your own wallet (admins only until payments exist)',
        body: creditsRequestSchema,
        response: { 200: creditsResultSchema, ...errors },
      },
    },
    async (request) => wallet.addCredits(ctx, requireUser(request).userId, request.body),
  );

  app.post(
    '/api/wallet/credits/use',
    {
      onRequest: signedInOnly,
      schema: {
        tags,
        security,
        summary: 'Spend from your own available balance',
        body: creditsRequestSchema,
        response: { 200: creditsResultSchema, ...errors },
      },
    },
    async (request) => wallet.useCredits(ctx, requireUser(request).userId, request.body),
  );

  const adminTags = ['admin'];
  app.post(
    '/api/admin/ledger/grant',
    {
      onRequest: adminOnly,
      schema: {
        tags: adminTags,
        security,
        summary: "Grant credits from the house to a user's available balance",
        body: adminGrantRequestSchema,
        response: { 200: creditsResultSchema, ...errors },
      },
    },
    async (request) => wallet.adminGrant(ctx, requireUser(request).userId, request.body),
  );

  app.get(
    '/api/admin/ledger/audit',
    {
      onRequest: adminOnly,
      schema: { tags: adminTags, security, summary: "Check the ledger's invariants", response: { 200: ledgerAuditSchema, ...errors } },
    },
    async () => auditLedger(ctx.db),
  );

  scheduleJob(app, ctx, {
    name: WEEKLY_RESET_JOB,
    everyMs: 60 * 60 * 1000,
    runAtStart: true,
    run: async () => {
      const reset = await runWeeklyResets(ctx.db);
      if (reset > 0) ctx.log.info({ reset }, 'weekly VTokens reset');
    },
  });
}

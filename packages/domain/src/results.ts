// Results of games played outside Versus (SPEC §3 Match, §4 Match statuses): reports, evidence,
// no-show claims, the match chat, disputes and their resolution; and the admin dashboard.
import { z } from 'zod';
import { CURRENCIES } from './constants.ts';
import { RESULTS } from './messages.ts';

export const RESULT_RULES = {
  /** A report the opponent neither confirms nor contests settles for the reporter after this. */
  confirmWindowMs: 60 * 60 * 1000,
  /** No report from either player this long after the start: the match is void. */
  noReportVoidMs: 24 * 60 * 60 * 1000,
  /** A no-show claim may be made this long after the start... */
  noShowOpensAfterMs: 10 * 60 * 1000,
  /** ...and the opponent has this long to answer it, or forfeits. */
  noShowAnswerMs: 5 * 60 * 1000,
  chatMaxLength: 500,
  statementMaxLength: 2000,
  reasonMaxLength: 2000,
} as const;

// Evidence follows SPEC §5 Avatar upload.
export const EVIDENCE_RULES = {
  types: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif'] as const,
  maxBytes: 5 * 1024 * 1024,
} as const;
export type EvidenceType = (typeof EVIDENCE_RULES.types)[number];

/** SPEC §5's checks for an uploaded image: null when it may be stored, else the message. */
export function checkEvidenceFile(file: { type: string; size: number }): string | null {
  const type = file.type.toLowerCase();
  if (!type.startsWith('image/')) return RESULTS.fileNotImage;
  if (!(EVIDENCE_RULES.types as readonly string[]).includes(type)) return RESULTS.unsupportedImage(type.slice('image/'.length));
  if (file.size > EVIDENCE_RULES.maxBytes) return RESULTS.fileTooLarge;
  return null;
}

export const REPORT_OUTCOMES = ['win', 'loss'] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];
export const reportRequestSchema = z.object({ outcome: z.enum(REPORT_OUTCOMES, { error: RESULTS.outcomeRequired }) });

export const RESOLUTION_OUTCOMES = ['player1', 'player2', 'draw', 'void'] as const;
export type ResolutionOutcome = (typeof RESOLUTION_OUTCOMES)[number];
/** Why an admin settled a match as they did: required, kept with the resolution or the transition. */
const adminReason = z.string({ error: RESULTS.reasonRequired }).trim().min(1, RESULTS.reasonRequired).max(RESULT_RULES.reasonMaxLength);

export const resolveRequestSchema = z.object({
  outcome: z.enum(RESOLUTION_OUTCOMES, { error: RESULTS.resolutionOutcomeRequired }),
  reason: adminReason,
});
export type ResolveRequest = z.infer<typeof resolveRequestSchema>;

/** An operator voids a web match that cannot go on: the reason is recorded with the match's transition. */
export const voidMatchRequestSchema = z.object({ reason: adminReason });
export type VoidMatchRequest = z.infer<typeof voidMatchRequestSchema>;
export const voidMatchResponseSchema = z.object({ matchId: z.string(), status: z.literal('cancelled') });
export type VoidMatchResponse = z.infer<typeof voidMatchResponseSchema>;

export const chatRequestSchema = z.object({
  body: z.string({ error: RESULTS.chatEmpty }).trim().min(1, RESULTS.chatEmpty).max(RESULT_RULES.chatMaxLength, RESULTS.chatTooLong),
});
export const statementRequestSchema = z.object({
  body: z.string({ error: RESULTS.statementEmpty }).trim().min(1, RESULTS.statementEmpty).max(RESULT_RULES.statementMaxLength),
});

export const evidenceSchema = z.object({
  id: z.string(),
  userId: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  /** GET it with the bearer token (players of the match and admins). */
  url: z.string(),
  createdAt: z.string(),
});
export type Evidence = z.infer<typeof evidenceSchema>;

export const reportSchema = z.object({
  userId: z.string(),
  outcome: z.enum(REPORT_OUTCOMES),
  evidence: evidenceSchema.nullable(),
  createdAt: z.string(),
});
export type Report = z.infer<typeof reportSchema>;

export const chatMessageSchema = z.object({
  id: z.string(),
  matchId: z.string(),
  userId: z.string(),
  username: z.string(),
  body: z.string(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const statementSchema = z.object({
  id: z.string(),
  userId: z.string(),
  body: z.string().nullable(),
  evidence: evidenceSchema.nullable(),
  createdAt: z.string(),
});

export const transitionSchema = z.object({
  actorId: z.string().nullable(),
  action: z.string(),
  fromStatus: z.string().nullable(),
  toStatus: z.string().nullable(),
  detail: z.unknown(),
  createdAt: z.string(),
});

export const noShowClaimSchema = z.object({
  claimantId: z.string(),
  claimedAt: z.string(),
  deadline: z.string(),
  status: z.enum(['open', 'answered', 'forfeited']),
});

/** What a player (or an admin) sees of an external match's result process. */
export const resultStateSchema = z.object({
  matchId: z.string(),
  status: z.string(),
  reports: z.array(reportSchema),
  /** When an unanswered report settles for its reporter. */
  confirmDeadline: z.string().nullable(),
  noShowClaim: noShowClaimSchema.nullable(),
  disputeId: z.string().nullable(),
  transitions: z.array(transitionSchema),
});
export type ResultState = z.infer<typeof resultStateSchema>;

export const playerDisputeRecordSchema = z.object({
  userId: z.string(),
  username: z.string(),
  disputes: z.number().int(),
  won: z.number().int(),
  lost: z.number().int(),
});

export const disputeSchema = z.object({
  id: z.string(),
  matchId: z.string(),
  status: z.enum(['open', 'resolved']),
  openedAt: z.string(),
  gameType: z.string(),
  stake: z.number().int(),
  currency: z.enum(CURRENCIES),
  player1: z.object({ id: z.string(), username: z.string() }),
  player2: z.object({ id: z.string(), username: z.string() }),
  reports: z.array(reportSchema),
  statements: z.array(statementSchema),
  chat: z.array(chatMessageSchema),
  records: z.array(playerDisputeRecordSchema),
  resolution: z
    .object({ outcome: z.enum(RESOLUTION_OUTCOMES), reason: z.string(), resolvedBy: z.string(), resolvedAt: z.string() })
    .nullable(),
});
export type Dispute = z.infer<typeof disputeSchema>;

export const disputeListQuerySchema = z.object({
  game: z.string().max(40).optional(),
  /** Only disputes open at least this many minutes. */
  minAgeMinutes: z.coerce.number().int().min(0).optional(),
  minStake: z.coerce.number().int().min(0).optional(),
  maxStake: z.coerce.number().int().min(0).optional(),
  status: z.enum(['open', 'resolved', 'all']).default('open'),
});
export type DisputeListQuery = z.infer<typeof disputeListQuerySchema>;

export const dashboardSchema = z.object({
  users: z.number().int(),
  openChallenges: z.number().int(),
  activeMatches: z.number().int(),
  openDisputes: z.number().int(),
  /** Whole units held in escrow, per currency. */
  escrowHeld: z.record(z.string(), z.number()),
  audit: z.object({ ok: z.boolean(), problems: z.array(z.object({ check: z.string(), detail: z.string() })) }),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/** The image type its first bytes say a file is, or null when they name none of ours. */
export function sniffImageType(bytes: Uint8Array): EvidenceType | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes[0] === 0x89 && ascii(1, 4) === 'PNG') return 'image/png';
  if (ascii(0, 4) === 'GIF8') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(8, 12))) return 'image/avif';
  return null;
}

/** checkEvidenceFile, then the bytes must be the image the type says (else "File must be an image"). */
export function checkEvidenceBytes(type: string, bytes: Uint8Array): string | null {
  const problem = checkEvidenceFile({ type, size: bytes.length });
  if (problem) return problem;
  return sniffImageType(bytes) === type.toLowerCase() ? null : RESULTS.fileNotImage;
}

// Responses of the results and admin routes.
export const reportResponseSchema = z.object({
  /** waiting: the opponent has not reported; settled: the reports agreed; disputed: they did not. */
  status: z.enum(['waiting', 'settled', 'disputed']),
  disputeId: z.string().nullable(),
});
/** waiting: the opponent is not ready yet; in_progress: both are, the match has started and reports are open. */
export const playNowResponseSchema = z.object({ status: z.enum(['waiting', 'in_progress']) });
export const noShowResponseSchema = z.object({ deadline: z.string() });
export const okResponseSchema = z.object({ ok: z.literal(true) });
export const chatListSchema = z.object({ messages: z.array(chatMessageSchema) });
export const statementResponseSchema = z.object({ id: z.string() });
export const disputeListSchema = z.object({ disputes: z.array(disputeSchema) });
export const resolveResponseSchema = z.object({ dispute: disputeSchema });

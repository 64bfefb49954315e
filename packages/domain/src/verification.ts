// Verification: gamertags per platform and an identity and age check, each a request an admin
// reviews (no outside provider).
import { z } from 'zod';
import { ageOn, isValidDate, verifiedSchema } from './auth.ts';
import { ACCOUNT_RULES } from './constants.ts';

export const VERIFY_PLATFORMS = ['xbox', 'playstation', 'steam'] as const;
export type VerifyPlatform = (typeof VERIFY_PLATFORMS)[number];
export const VERIFY_KINDS = ['xbox', 'playstation', 'steam', 'identity'] as const;
export type VerifyKind = (typeof VERIFY_KINDS)[number];
export const REQUEST_STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type VerificationStatus = (typeof REQUEST_STATUSES)[number];
export const DOCUMENT_TYPES = ['passport', 'driving_licence', 'national_id'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const GAMERTAG_LIMIT = 32;

export const VERIFY_TEXT = {
  title: 'Verification',
  subtitle: 'Link your gaming accounts and verify your identity and age.',
  manualNotice:
    'Verification is reviewed by our team: there is no automatic check with Xbox, PlayStation, Steam or an identity provider yet. An admin compares what you send and approves or rejects it, usually within a day.',
  platformLabels: { xbox: 'Xbox', playstation: 'PlayStation', steam: 'Steam' } as Record<VerifyPlatform, string>,
  kindLabels: { xbox: 'Xbox gamertag', playstation: 'PlayStation ID', steam: 'Steam name', identity: 'Identity and age' } as Record<
    VerifyKind,
    string
  >,
  documentLabels: { passport: 'Passport', driving_licence: 'Driving licence', national_id: 'National ID card' } as Record<
    DocumentType,
    string
  >,
  gamertags: 'Gaming accounts',
  gamertagsHint: 'Your gamertags fill in the challenge wizard for you.',
  gamertagLabel: (platform: VerifyPlatform) => `Your ${VERIFY_TEXT.platformLabels[platform]} gamertag`,
  link: 'Link and request review',
  update: 'Save and request review',
  unlink: 'Unlink',
  identity: 'Identity and age',
  identityHint: 'Players must be 18 or older. Give your legal name, date of birth and the document you will show.',
  fullName: 'Legal full name',
  dateOfBirth: 'Date of birth',
  documentType: 'Document',
  documentLast4: 'Last 4 characters of the document number',
  submitIdentity: 'Send for review',
  status: {
    none: 'Not linked',
    unverified: 'Not verified',
    pending: 'Waiting for review',
    approved: 'Verified',
    rejected: 'Rejected',
    cancelled: 'Withdrawn',
  },
  rejectedBecause: (reason: string) => `Rejected: ${reason}`,
  allVerified: 'Fully verified',
  completedAt: (when: string) => `Verification completed ${when}`,
  linked: (platform: VerifyPlatform) => `${VERIFY_TEXT.platformLabels[platform]} gamertag saved and sent for review`,
  unlinked: (platform: VerifyPlatform) => `${VERIFY_TEXT.platformLabels[platform]} gamertag removed`,
  identitySent: 'Identity check sent for review',
  // Admin queue.
  queueTitle: 'Verification Review',
  queueEmpty: 'No verification requests are waiting.',
  approve: 'Approve',
  reject: 'Reject',
  reason: 'Reason (shown to the player)',
  approved: 'Approved',
  rejected: 'Rejected',
  // Refusals.
  gamertagRequired: 'Please enter your gamertag/username for this platform.',
  gamertagTooLong: `Gamertag must be at most ${GAMERTAG_LIMIT} characters`,
  invalidPlatform: 'Unknown platform',
  fullNameRequired: 'Full name is required',
  fullNameTooLong: 'Full name must be at most 100 characters',
  dateOfBirthRequired: 'Date of birth is required',
  mustBeAdult: 'You must be 18 or older to play on Versus',
  documentRequired: 'Choose the document you will show',
  documentLast4Invalid: 'Enter the last 4 letters or digits of the document number',
  alreadyPending: 'A review of this is already waiting.',
  alreadyVerified: 'Already verified.',
  requestNotFound: 'Verification request not found',
  notPending: 'This request has already been reviewed.',
  ownRequest: 'Another admin must review your own verification.',
  reasonRequired: 'Give the player a reason (1 to 500 characters)',
  notLinked: 'No gamertag is linked for this platform.',
} as const;

export type Verified = z.infer<typeof verifiedSchema>;

/** `all`: identity verified and every linked platform verified, with at least one linked. */
export function withAll(flags: Omit<Verified, 'all'>, linked: readonly VerifyPlatform[]): Verified {
  const all = flags.identity && linked.length > 0 && linked.every((p) => flags[p]);
  return { ...flags, all };
}

export const gamertagRequestSchema = z.object({ gamertag: z.string() });

/** The gamertag as stored, or the refusal. */
export function checkGamertag(raw: unknown): { ok: true; gamertag: string } | { ok: false; message: string } {
  const gamertag = typeof raw === 'string' ? raw.trim() : '';
  if (!gamertag) return { ok: false, message: VERIFY_TEXT.gamertagRequired };
  if (gamertag.length > GAMERTAG_LIMIT) return { ok: false, message: VERIFY_TEXT.gamertagTooLong };
  return { ok: true, gamertag };
}

export const identityRequestSchema = z.object({
  fullName: z.string(),
  dateOfBirth: z.string(),
  documentType: z.string(),
  documentLast4: z.string(),
});
export type IdentityRequest = z.infer<typeof identityRequestSchema>;

export type IdentityCheck =
  | { ok: true; value: { fullName: string; dateOfBirth: string; documentType: DocumentType; documentLast4: string } }
  | { ok: false; message: string; field: keyof IdentityRequest };

/** The identity and age form, checked in order; the age with month and day on `today`. */
export function checkIdentity(input: IdentityRequest, today: Date): IdentityCheck {
  const fullName = input.fullName.trim();
  if (!fullName) return { ok: false, message: VERIFY_TEXT.fullNameRequired, field: 'fullName' };
  if (fullName.length > 100) return { ok: false, message: VERIFY_TEXT.fullNameTooLong, field: 'fullName' };
  if (!input.dateOfBirth || !isValidDate(input.dateOfBirth))
    return { ok: false, message: VERIFY_TEXT.dateOfBirthRequired, field: 'dateOfBirth' };
  if (ageOn(input.dateOfBirth, today) < ACCOUNT_RULES.minAge) return { ok: false, message: VERIFY_TEXT.mustBeAdult, field: 'dateOfBirth' };
  if (!(DOCUMENT_TYPES as readonly string[]).includes(input.documentType))
    return { ok: false, message: VERIFY_TEXT.documentRequired, field: 'documentType' };
  const last4 = input.documentLast4.trim().toUpperCase();
  if (!/^[A-Z0-9]{4}$/.test(last4)) return { ok: false, message: VERIFY_TEXT.documentLast4Invalid, field: 'documentLast4' };
  return {
    ok: true,
    value: { fullName, dateOfBirth: input.dateOfBirth, documentType: input.documentType as DocumentType, documentLast4: last4 },
  };
}

/** The wizard's platform (SPEC §1: pc, xbox, playstation, mobile, web) to the linked account it uses: PC games are on Steam. */
export function platformAccount(platform: string | null | undefined): VerifyPlatform | null {
  if (platform === 'xbox' || platform === 'playstation') return platform;
  if (platform === 'pc') return 'steam';
  return null;
}

// ---------------------------------------------------------------------------------------
// Wire shapes

export const verificationRequestSchema = z.object({
  id: z.string().uuid(),
  kind: z.enum(VERIFY_KINDS),
  status: z.enum(REQUEST_STATUSES),
  gamertag: z.string().nullable(),
  reason: z.string().nullable(),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
});
export type VerificationRequest = z.infer<typeof verificationRequestSchema>;

export const linkedGamertagSchema = z.object({
  platform: z.enum(VERIFY_PLATFORMS),
  gamertag: z.string(),
  verified: z.boolean(),
  updatedAt: z.string(),
});
export type LinkedGamertag = z.infer<typeof linkedGamertagSchema>;

export const verificationStateSchema = z.object({
  /** Always 'manual' until a provider exists: the UI says an admin reviews. */
  provider: z.literal('manual'),
  verified: verifiedSchema,
  verificationCompletedAt: z.string().nullable(),
  gamertags: z.array(linkedGamertagSchema),
  /** The latest request of each kind. */
  requests: z.array(verificationRequestSchema),
});
export type VerificationState = z.infer<typeof verificationStateSchema>;

export const queueItemSchema = verificationRequestSchema.extend({
  user: z.object({ id: z.string().uuid(), username: z.string(), displayName: z.string(), fullName: z.string(), dateOfBirth: z.string() }),
  fullName: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  documentType: z.enum(DOCUMENT_TYPES).nullable(),
  documentLast4: z.string().nullable(),
  reviewedBy: z.string().nullable(),
});
export type QueueItem = z.infer<typeof queueItemSchema>;
export const queueResponseSchema = z.object({ requests: z.array(queueItemSchema) });
export const queueQuerySchema = z.object({ status: z.enum(['pending', 'approved', 'rejected', 'cancelled', 'all']).default('pending') });

export const reviewRequestSchema = z.object({ reason: z.string().optional() });
export const reviewResponseSchema = z.object({
  request: queueItemSchema,
  verified: verifiedSchema,
  verificationCompletedAt: z.string().nullable(),
});

// The status a notification's match or challenge has now (still-current.ts). Only the status is
// read: the match and challenge schemas stay out of the shell's bundle.
import { z } from 'zod';
import { api } from '../../api/index.ts';
import type { StatusReader } from './still-current.ts';

const matchStatus = z.object({ match: z.object({ status: z.string() }) });
const challengeStatus = z.object({ challenge: z.object({ status: z.string() }) });

export const currentStatus: StatusReader = {
  match: async (id) => (await api.get(`/api/matches/${encodeURIComponent(id)}`, matchStatus)).match.status,
  challenge: async (id) => (await api.get(`/api/challenges/${encodeURIComponent(id)}`, challengeStatus)).challenge.status,
};

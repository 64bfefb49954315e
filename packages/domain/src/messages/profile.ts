// Profile and leaderboards.
import { GENERIC } from './shell.ts';
import { RESULTS } from './results.ts';

// SPEC §5 Avatar upload, §8 Storage; texts marked "ours" fill cases SPEC does not word.
export const PROFILE = {
  // SPEC §5: the same three texts as evidence uploads.
  fileNotImage: RESULTS.fileNotImage,
  unsupportedImage: RESULTS.unsupportedImage,
  fileTooLarge: RESULTS.fileTooLarge,
  bucketMissing: GENERIC.bucketNotFound('avatars'),
  // Ours.
  title: 'Profile Settings',
  avatarMissing: 'Choose an image to upload.',
  uploadUnreadable: GENERIC.uploadUnreadable,
  avatarNotFound: 'Avatar not found',
  avatarUpdated: 'Avatar updated',
  avatarRemoved: 'Avatar removed',
  avatarFailed: 'Could not upload the avatar',
  saved: 'Profile saved',
  saveFailed: 'Could not save your profile',
  unranked: 'Unranked',
  noRatings: 'Play a match to get a rating.',
  noMatches: 'No finished matches yet. Play a match and it will show here.',
  replay: 'Replay',
  replayTitle: 'Replay',
  accountLinksTitle: 'Your account',
  accountLinks: {
    social: { label: 'Friends', detail: 'Friends, followers and who is online' },
    verification: { label: 'Verification', detail: 'Gamertags, identity and age' },
    notifications: { label: 'Notification settings', detail: 'Sounds, quiet hours and reminders' },
  },
  replayStart: 'First position',
  replayPrevious: 'Previous move',
  replayNext: 'Next move',
  replayEnd: 'Last position',
  replayPosition: (ply: number, total: number) => (ply === 0 ? `Start · ${total} moves` : `Move ${ply} of ${total}`),
  replayBroken: 'This match cannot be replayed on a board; its moves are listed below.',
  leaderboardsTitle: 'Leaderboards',
  leaderboardsVirtual: 'Leaderboards are not available for virtual accounts.',
  leaderboardsEmpty: 'No ranked players yet. Win a match to be the first.',
  yourPosition: 'Your position',
  notOnBoard: 'You are not on this leaderboard yet: play a rated match.',
  unknownBoard: 'Unknown leaderboard',
  badPage: 'Page must be a whole number from 1',
  badPageSize: 'Page size must be 1 to 50',
} as const;

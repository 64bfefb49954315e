// Icons and money text shared by the marketplace cards and the wizard.
import {
  Bot,
  CircleDot,
  Crosshair,
  Crown,
  Dice5,
  Gamepad2,
  Globe,
  Goal,
  Grid3x3,
  Hand,
  Monitor,
  Rocket,
  Smartphone,
  Target,
  Zap,
  type LucideIcon,
} from 'lucide-react';
import type { Currency } from '@versus/domain';
import type { GameId, Platform } from '@versus/domain/catalogue';
import type { SkillLevel } from '@versus/domain/challenges';
import { formatMoney, toMinor } from '@versus/domain/money';

export const GAME_ICONS: Record<GameId, LucideIcon> = {
  'tic-tac-toe': Grid3x3,
  'rock-paper-scissors': Hand,
  chess: Crown,
  checkers: CircleDot,
  ludo: Dice5,
  'ai-rock-paper-scissors': Bot,
  fortnite: Target,
  'fifa-24': Goal,
  'call-of-duty': Crosshair,
  'rocket-league': Rocket,
  valorant: Zap,
};

export const PLATFORM_ICONS: Record<Platform, LucideIcon> = {
  pc: Monitor,
  xbox: Gamepad2,
  playstation: Gamepad2,
  mobile: Smartphone,
  web: Globe,
};

export const SKILL_LABELS: Record<SkillLevel, string> = {
  any: 'Any skill',
  beginner: 'Beginner',
  intermediate: 'Intermediate',
  advanced: 'Advanced',
  expert: 'Expert',
};

/** A whole stake as money: 25 credits → "$25.00", 10 VTokens → "10.00 VT" (SPEC §9: 2 decimals). */
export const stakeMoney = (stake: number, currency: Currency): string => formatMoney(toMinor(stake), currency);

/** "30 min", "1 h", "1 h 30 min". */
export function durationLabel(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

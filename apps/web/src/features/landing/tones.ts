import type { Tone } from './landing.content.ts';

// Full class names, so Tailwind sees every one of them.
export const TONE_CLASSES: Record<Tone, { text: string; tile: string; border: string; glow: string }> = {
  accent: {
    text: 'text-accent',
    tile: 'bg-accent/15 ring-accent/35',
    border: 'hover:border-accent/60',
    glow: 'bg-accent/25',
  },
  'accent-2': {
    text: 'text-accent-2',
    tile: 'bg-accent-2/15 ring-accent-2/35',
    border: 'hover:border-accent-2/60',
    glow: 'bg-accent-2/20',
  },
  success: {
    text: 'text-success',
    tile: 'bg-success/15 ring-success/35',
    border: 'hover:border-success/60',
    glow: 'bg-success/20',
  },
  warning: {
    text: 'text-warning',
    tile: 'bg-warning/15 ring-warning/35',
    border: 'hover:border-warning/60',
    glow: 'bg-warning/20',
  },
};

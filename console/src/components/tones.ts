/** Which colour each state reads in: green when it is well, amber while it needs a look, red when it failed. */
import type { Tone } from './ui';

const TONES: Record<string, Tone> = {
  completed: 'good',
  resolved: 'good',
  active: 'good',
  paid: 'good',
  in_progress: 'info',
  rotating: 'info',
  issued: 'info',
  monitoring: 'info',
  identified: 'warn',
  investigating: 'warn',
  acknowledged: 'warn',
  escalated: 'warn',
  abandoned: 'warn',
  warning: 'warn',
  medium: 'warn',
  draft: 'neutral',
  expired: 'neutral',
  revoked: 'neutral',
  void: 'neutral',
  low: 'neutral',
  info: 'info',
  failed: 'bad',
  firing: 'bad',
  open: 'bad',
  critical: 'bad',
  high: 'bad',
};

export const toneOf = (state: string): Tone => TONES[state] ?? 'neutral';

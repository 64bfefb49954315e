// The profile page and Game Settings render the theme and account-mode preferences from here.
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { AccountModePreference, ThemePreference } from './PreferenceSections.tsx';

vi.mock('../features/auth/use-account-switch.ts', () => ({ useAccountSwitch: () => ({ switching: false, switchTo: async () => {} }) }));

/** The id a section is labelled by names its heading. */
function labelledHeading(html: string): string | undefined {
  const id = /<section[^>]*aria-labelledby="([^"]+)"/.exec(html)?.[1];
  return id ? new RegExp(`<h3 id="${id.replace(/[^\w]/g, '\\$&')}"[^>]*>([^<]*)<`).exec(html)?.[1] : undefined;
}

describe('ThemePreference', () => {
  it('offers Dark and Light as a labelled radio group for a real account', () => {
    const html = renderToString(<ThemePreference virtual={false} />);
    expect(labelledHeading(html)).toBe('Theme');
    expect(html).toContain('role="radiogroup"');
    expect(html).toContain('aria-label="Theme"');
    expect(html).toContain('The default arena look');
    expect(html).toContain('Bright and clean');
  });
  it('is locked to Retro in virtual mode, with the test id only where asked', () => {
    const html = renderToString(<ThemePreference virtual testIds />);
    expect(html).toContain('Theme locked to <strong>Retro</strong> while in virtual mode.');
    expect(html).toContain('data-testid="theme-locked"');
    expect(renderToString(<ThemePreference virtual />)).not.toContain('data-testid');
  });
});

describe('AccountModePreference', () => {
  it('shows the account type under the given heading and offers the switch', () => {
    const real = renderToString(<AccountModePreference title="Account mode" virtual={false} />);
    expect(labelledHeading(real)).toBe('Account mode');
    expect(real).toContain('Credits and real stakes.');
    expect(real).toContain('Switch to Virtual mode');
    const virtual = renderToString(<AccountModePreference title="Account type" virtual testIds />);
    expect(virtual).toMatch(/data-testid="account-type"[^>]*>Virtual \(demo\)</);
    expect(virtual).toContain('VTokens, weekly allowance, no real stakes.');
    expect(virtual).toMatch(/data-testid="switch-account-type"[^>]*>.*Switch to Real account/);
  });
  it('leaves the switch out when it cannot be used', () => {
    expect(renderToString(<AccountModePreference title="Account mode" virtual={false} canSwitch={false} />)).not.toContain('Switch to');
  });
});

// A new visitor meets the gate, learns what the registration form needs in SPEC §5 order,
// registers, lands on the landing page, signs out and signs back in, against the real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { AUTH, PRODUCT_NAME, SHELL_TEXT } from '@versus/domain';
import { afterSplash, launchBrowser, newPage, newPlayer, screenshot, signUpInContext } from './harness.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** The one error the open auth form shows. */
async function formError(page: Page): Promise<string | null> {
  const error = page.getByTestId('auth-error');
  await error.waitFor();
  return error.textContent();
}

/** Submits the register form and returns the error it shows. */
async function submitRegister(page: Page): Promise<string | null> {
  await page.getByTestId('register-dialog').getByRole('button', { name: 'Create Account', exact: true }).click();
  return formError(page);
}

function yearsAgo(years: number): string {
  const date = new Date();
  date.setFullYear(date.getFullYear() - years);
  return date.toISOString().slice(0, 10);
}

describe('sign-up and sign-in', () => {
  it('walks a new visitor from the gate through registration, sign-out and sign-in', async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    const player = newPlayer('e2e');
    try {
      await page.goto('/');
      const gate = page.getByTestId('gate-page');
      await gate.waitFor();
      expect(await gate.getByRole('heading', { level: 1 }).textContent()).toContain('Competitive Gaming');
      await afterSplash(page);

      await gate.getByRole('button', { name: 'Create Account' }).click();
      const dialog = page.getByTestId('register-dialog');
      await dialog.waitFor();
      expect(await dialog.getByRole('heading').first().textContent()).toBe(SHELL_TEXT.join(PRODUCT_NAME));
      expect(await dialog.getByText('Beta', { exact: true }).isVisible()).toBe(true);

      // SPEC §5 order: account type first, with the selection prompt.
      expect(await submitRegister(page)).toBe(AUTH.accountTypeRequired);
      expect(await dialog.getByTestId('account-type-prompt').isVisible()).toBe(true);

      // Choosing clears the error; the next rule speaks.
      await dialog.getByRole('radio', { name: /Real/ }).click();
      expect(await page.getByTestId('auth-error').count()).toBe(0);
      expect(await submitRegister(page)).toBe(AUTH.fullNameRequired);

      await dialog.getByLabel('Full name').fill(player.fullName);
      expect(await submitRegister(page)).toBe(AUTH.usernameRequired);
      await dialog.getByLabel('Username').fill(player.username);
      expect(await submitRegister(page)).toBe(AUTH.emailRequired);
      await dialog.getByLabel('Email').fill(player.email);
      expect(await submitRegister(page)).toBe(AUTH.phoneRequired);
      await dialog.getByLabel('Phone').fill(player.phone);
      expect(await submitRegister(page)).toBe(AUTH.dateOfBirthRequired);

      // A 10-year-old's birthday does not tick the 18+ box by itself.
      await dialog.getByLabel('Date of birth').fill(yearsAgo(10));
      expect(await dialog.getByRole('checkbox').getAttribute('aria-checked')).toBe('false');
      expect(await submitRegister(page)).toBe(AUTH.mustBeAdult);
      await dialog.getByRole('checkbox').click();
      await dialog.getByLabel('Password', { exact: true }).fill('abc');
      expect(await submitRegister(page)).toBe(AUTH.passwordTooShort);
      await dialog.getByLabel('Password', { exact: true }).fill(player.password);
      // Ticked but the date still says 10: the age rule has the last word.
      expect(await submitRegister(page)).toBe(AUTH.mustBeAdult);

      const password = dialog.getByLabel('Password', { exact: true });
      // An adult's date ticks the box on its own.
      await dialog.getByRole('checkbox').click();
      expect(await dialog.getByRole('checkbox').getAttribute('aria-checked')).toBe('false');
      await dialog.getByLabel('Date of birth').fill(player.dateOfBirth);
      expect(await dialog.getByRole('checkbox').getAttribute('aria-checked')).toBe('true');
      expect(await dialog.getByLabel('Date of birth').getAttribute('max')).toMatch(/^\d{4}-\d{2}-\d{2}$/);

      // One of the most common passwords: the server's refusal shows on the password field.
      await password.fill('password1');
      expect(await submitRegister(page)).toBe(AUTH.passwordTooCommon);
      expect(await password.getAttribute('aria-invalid')).toBe('true');
      expect(await password.getAttribute('aria-describedby')).toBe(
        await page.getByTestId('auth-error').locator('xpath=..').getAttribute('id'),
      );
      await password.fill(player.password);

      // The password toggle shows and hides what was typed.
      await dialog.getByRole('button', { name: 'Show password' }).click();
      expect(await password.getAttribute('type')).toBe('text');
      await dialog.getByRole('button', { name: 'Hide password' }).click();
      expect(await password.getAttribute('type')).toBe('password');

      await dialog.getByRole('button', { name: 'Create Account', exact: true }).click();
      await page.getByTestId('landing-page').waitFor();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText(`Welcome to ${PRODUCT_NAME}`).first().waitFor();
      // The signed-in end of the header is a chunk of its own (its skeleton shows meanwhile).
      await page.getByTestId('user-menu').waitFor();

      // The session survives a reload: the refresh cookie brings it back.
      await page.reload();
      await page.getByTestId('landing-page').waitFor();

      // Sign out: back to the gate.
      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: 'Sign Out' }).click();
      await page.getByTestId('gate-page').waitFor();
      expect(await page.getByTestId('user-menu').count()).toBe(0);

      // Sign in from the header: wrong password first, then the right one.
      await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
      const signIn = page.getByTestId('signin-dialog');
      await signIn.waitFor();
      expect(await signIn.getByRole('heading').first().textContent()).toBe(SHELL_TEXT.welcomeBack);
      // The account type used last on this device is chosen already.
      expect(await signIn.getByRole('radio', { name: /Real/ }).getAttribute('aria-checked')).toBe('true');
      await signIn.getByLabel('Email').fill(player.email);
      await signIn.getByLabel('Password', { exact: true }).fill('wrong-password');
      await signIn.getByRole('button', { name: 'Sign In', exact: true }).click();
      expect(await formError(page)).toBe(AUTH.invalidCredentials);

      // Typing clears the error.
      await signIn.getByLabel('Password', { exact: true }).fill(player.password);
      expect(await page.getByTestId('auth-error').count()).toBe(0);
      await signIn.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.getByTestId('landing-page').waitFor();
      await page
        .getByText(/Welcome back/)
        .first()
        .waitFor();
    } finally {
      await context.close();
    }
  });

  it('switches between the two modals and clears the error on close', async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    try {
      await page.goto('/marketplace');
      await page.getByTestId('gate-page').waitFor();
      await afterSplash(page);

      await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
      const signIn = page.getByTestId('signin-dialog');
      await signIn.getByRole('button', { name: 'Sign In', exact: true }).click();
      expect(await formError(page)).toBe(AUTH.accountTypeRequired);
      await signIn.getByRole('radio', { name: /Virtual/ }).click();
      await signIn.getByRole('button', { name: 'Sign In', exact: true }).click();
      expect(await formError(page)).toBe(AUTH.emailRequired);
      await signIn.getByLabel('Email').fill('someone@example.test');
      await signIn.getByRole('button', { name: 'Sign In', exact: true }).click();
      expect(await formError(page)).toBe(AUTH.passwordRequired);

      // "Create one" switches to Register, "Sign in" switches back, with no stale error.
      await signIn.getByRole('button', { name: 'Create one' }).click();
      const register = page.getByTestId('register-dialog');
      await register.waitFor();
      expect(await page.getByTestId('auth-error').count()).toBe(0);
      await register.getByRole('button', { name: 'Sign in', exact: true }).click();
      await signIn.waitFor();

      await signIn.getByRole('button', { name: 'Sign In', exact: true }).click();
      await formError(page);
      await page.keyboard.press('Escape');
      await signIn.waitFor({ state: 'detached' });
      await page.getByRole('banner').getByRole('button', { name: 'Join Now' }).click();
      await register.waitFor();
      expect(await page.getByTestId('auth-error').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('takes screenshots of the gate, the register modal and the landing page', async () => {
    for (const width of [1280, 390]) {
      const { context, page } = await newPage(browser, { width });
      try {
        await page.goto('/');
        await page.getByTestId('gate-page').waitFor();
        await afterSplash(page);
        await screenshot(page, `gate-${width}`);

        await page.getByTestId('gate-page').getByRole('button', { name: 'Create Account' }).click();
        await page.getByTestId('register-dialog').waitFor();
        await page.waitForTimeout(400); // the opening animation
        await screenshot(page, `register-${width}`);
        await page.keyboard.press('Escape');

        // Register through the API in this browser context: the refresh cookie signs the page in.
        await signUpInContext(page, { prefix: `shot${width}` });
        await page.goto('/');
        await page.getByTestId('landing-page').waitFor();
        await afterSplash(page);
        await page.waitForTimeout(300);
        await screenshot(page, `landing-${width}`);
      } finally {
        await context.close();
      }
    }
  });
});

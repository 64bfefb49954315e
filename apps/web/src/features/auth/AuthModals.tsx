import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { AlertCircle, AtSign, CalendarDays, Gamepad2, Lock, Mail, Phone, ShieldCheck, User as UserIcon, Wallet } from 'lucide-react';
import {
  ACCOUNT_RULES,
  DEFAULTS,
  PRODUCT_NAME,
  SHELL_TEXT,
  ageOn,
  validateLogin,
  validateRegistration,
  type AccountType,
  type FormError,
  type FormField,
  type LoginForm,
  type RegistrationForm,
  type User,
} from '@versus/domain';
import { ApiError } from '../../api/index.ts';
import {
  Badge,
  Button,
  Checkbox,
  ChoiceCards,
  Dialog,
  DialogContent,
  Field,
  Input,
  PasswordInput,
  cn,
  type Choice,
  type InputProps,
} from '../../ui/index.ts';
import { clearAuthError, lastAccountType, messageFor, signIn, signUp } from './session-store.ts';
import { formFieldOf, localToday } from './auth-form.ts';

export type AuthDialogMode = 'signin' | 'register';

const ACCOUNT_CHOICES: readonly Choice<AccountType>[] = [
  {
    value: 'real',
    title: 'Real',
    description: 'Stake credits ($) and win real payouts',
    icon: <Wallet className="size-4 text-accent-2" aria-hidden />,
  },
  {
    value: 'virtual',
    title: 'Virtual',
    description: 'Demo mode with VTokens, retro style',
    icon: <Gamepad2 className="size-4 text-vt" aria-hidden />,
    selectedClassName: 'data-[state=checked]:border-vt data-[state=checked]:shadow-[0_8px_32px_-8px_var(--c-vt)]',
  },
];

function errorFromFailure(error: unknown): FormError | { field: null; message: string } {
  const message = messageFor(error);
  return { field: error instanceof ApiError ? formFieldOf(error.field) : null, message };
}

type ShownError = FormError | { field: null; message: string } | null;

export default function AuthModals({
  mode,
  onModeChange,
}: {
  mode: AuthDialogMode | null;
  onModeChange: (mode: AuthDialogMode | null) => void;
}) {
  const switchTo = (next: AuthDialogMode) => {
    clearAuthError();
    onModeChange(next);
  };
  return (
    <Dialog
      open={mode !== null}
      onOpenChange={(open) => {
        if (open) return;
        // Closing a modal clears any auth error (SPEC §2 Gate behaviour).
        clearAuthError();
        onModeChange(null);
      }}
    >
      {mode === 'signin' && <SignInDialog onSwitch={() => switchTo('register')} onDone={() => onModeChange(null)} />}
      {mode === 'register' && <RegisterDialog onSwitch={() => switchTo('signin')} onDone={() => onModeChange(null)} />}
    </Dialog>
  );
}

// ---------------------------------------------------------------------------------------------

function useFormError() {
  const [error, setError] = useState<ShownError>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const show = (next: ShownError) => {
    setError(next);
    if (!next?.field) return;
    // Bring the keyboard to the field at fault.
    requestAnimationFrame(() => {
      const target = formRef.current?.querySelector<HTMLElement>(`[data-field="${next.field}"]`);
      const focusable = target?.matches('input, button') ? target : target?.querySelector<HTMLElement>('input, button');
      focusable?.focus();
    });
  };
  const clear = () => {
    if (error) setError(null);
    clearAuthError();
  };
  return { error, show, clear, formRef };
}

/** The one error of the form, under the field at fault (or above the form for a server error without a field). */
function ErrorText({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} role="alert" className="flex items-start gap-2 text-sm font-medium text-danger">
      <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span data-testid="auth-error">{message}</span>
    </p>
  );
}

/** The error for `field` (null: the form-level one), where that field is. */
function errorSlot(error: ShownError, field: FormField | null, id: string) {
  if (!error || error.field !== field) return null;
  if (field === null) {
    return (
      <div className="rounded-xl border border-danger/40 bg-danger/10 px-3.5 py-3">
        <ErrorText id={id} message={error.message} />
      </div>
    );
  }
  return <ErrorText id={id} message={error.message} />;
}

/** One text field of a form: its label, its error in place, and the input wired to both. */
function TextField({
  field,
  label,
  hint,
  error,
  errorId,
  value,
  onValue,
  password = false,
  ...input
}: Omit<InputProps, 'id' | 'value' | 'onChange' | 'invalid'> & {
  field: FormField;
  label: string;
  hint?: string;
  error: ShownError;
  errorId: string;
  value: string;
  onValue: (value: string) => void;
  /** A password, with its show/hide toggle. */
  password?: boolean;
}) {
  const invalid = error?.field === field;
  const Control = password ? PasswordInput : Input;
  return (
    <Field label={label} hint={hint} error={errorSlot(error, field, errorId)}>
      {({ id, hintId }) => (
        <Control
          {...input}
          id={id}
          data-field={field}
          value={value}
          onChange={(e) => onValue(e.target.value)}
          invalid={invalid}
          aria-describedby={invalid ? errorId : hint ? hintId : undefined}
        />
      )}
    </Field>
  );
}

/** The email field, the same in both dialogs. */
const EMAIL_FIELD = {
  field: 'email',
  label: 'Email',
  type: 'email',
  autoComplete: 'email',
  inputMode: 'email',
  placeholder: 'you@example.com',
  icon: <Mail />,
} as const;

function AccountTypeField({
  value,
  onChange,
  invalid,
  errorId,
  error,
}: {
  value: AccountType | null;
  onChange: (value: AccountType) => void;
  invalid: boolean;
  errorId: string;
  error: ReactNode;
}) {
  return (
    <fieldset className="grid gap-2" data-field="accountType" aria-describedby={invalid ? errorId : undefined}>
      <legend className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">Account type</legend>
      <ChoiceCards label="Account type" value={value} onChange={onChange} choices={ACCOUNT_CHOICES} invalid={invalid} name="accountType" />
      {error}
      {value === null && (
        <p className={cn('text-xs', invalid ? 'text-fg/85' : 'text-muted')} data-testid="account-type-prompt">
          Choose an account type to continue: Real for credits, Virtual for a risk-free demo.
        </p>
      )}
    </fieldset>
  );
}

function SwitchLine({ children }: { children: ReactNode }) {
  return <p className="mt-6 text-center text-sm text-muted">{children}</p>;
}

function greeting(user: User): string {
  return user.displayName || user.username;
}

// ---------------------------------------------------------------------------------------------

function SignInDialog({ onSwitch, onDone }: { onSwitch: () => void; onDone: () => void }) {
  const [form, setForm] = useState<LoginForm>(() => ({ accountType: lastAccountType(), email: '', password: '' }));
  const [busy, setBusy] = useState(false);
  const { error, show, clear, formRef } = useFormError();
  const errorId = useId();

  const update = <K extends keyof LoginForm>(key: K, value: LoginForm[K]) => {
    clear();
    setForm((current) => ({ ...current, [key]: value }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const invalid = validateLogin(form);
    if (invalid) return show(invalid);
    setBusy(true);
    try {
      const user = await signIn(form);
      onDone();
      toast.success(`Welcome back, ${greeting(user)}!`, {
        description: user.accountType === 'virtual' ? 'Virtual mode is on. Have fun with your VTokens.' : 'Ready for your next challenge?',
      });
    } catch (failure) {
      show(errorFromFailure(failure));
    } finally {
      setBusy(false);
    }
  };

  const invalid = (field: FormField) => error?.field === field;
  return (
    <DialogContent
      data-testid="signin-dialog"
      title={SHELL_TEXT.welcomeBack}
      description={`Sign in to your ${PRODUCT_NAME} account and get back in the arena.`}
      header={<DialogMark />}
    >
      <form ref={formRef} onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
        {errorSlot(error, null, errorId)}
        <AccountTypeField
          value={form.accountType}
          onChange={(v) => update('accountType', v)}
          invalid={invalid('accountType')}
          errorId={errorId}
          error={errorSlot(error, 'accountType', errorId)}
        />
        <TextField {...EMAIL_FIELD} error={error} errorId={errorId} value={form.email} onValue={(v) => update('email', v)} />
        <TextField
          field="password"
          label="Password"
          password
          error={error}
          errorId={errorId}
          autoComplete="current-password"
          placeholder="Your password"
          value={form.password}
          onValue={(v) => update('password', v)}
        />
        <Button type="submit" size="lg" loading={busy} className="mt-2 w-full">
          Sign In
        </Button>
      </form>
      <SwitchLine>
        New to {PRODUCT_NAME}?{' '}
        <button type="button" onClick={onSwitch} className="font-semibold text-accent-2 underline-offset-4 hover:underline">
          Create one
        </button>
      </SwitchLine>
    </DialogContent>
  );
}

// ---------------------------------------------------------------------------------------------

const EMPTY_REGISTRATION: RegistrationForm = {
  accountType: null,
  fullName: '',
  username: '',
  email: '',
  phone: '',
  dateOfBirth: '',
  ageVerified: false,
  password: '',
};

function RegisterDialog({ onSwitch, onDone }: { onSwitch: () => void; onDone: () => void }) {
  const [form, setForm] = useState<RegistrationForm>(EMPTY_REGISTRATION);
  const [busy, setBusy] = useState(false);
  const { error, show, clear, formRef } = useFormError();
  const errorId = useId();
  const today = localToday();

  const update = <K extends keyof RegistrationForm>(key: K, value: RegistrationForm[K]) => {
    clear();
    setForm((current) => ({ ...current, [key]: value }));
  };

  const onDateOfBirth = (value: string) => {
    clear();
    setForm((current) => ({
      ...current,
      dateOfBirth: value,
      // Auto-tick 18+ when the chosen date shows 18 or more (SPEC §5).
      ageVerified: current.ageVerified || ageOn(value, new Date(`${today}T00:00:00Z`)) >= ACCOUNT_RULES.minAge,
    }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const invalid = validateRegistration(form);
    if (invalid) return show(invalid);
    setBusy(true);
    try {
      const user = await signUp(form);
      onDone();
      toast.success(`Welcome to ${PRODUCT_NAME}, ${greeting(user)}!`, {
        description:
          user.accountType === 'virtual'
            ? `Your ${DEFAULTS.weeklyVirtualCredits} VTokens are ready. Play risk-free in virtual mode.`
            : `Your ${DEFAULTS.tokens.toLocaleString('en-US')} starting credits are in your wallet.`,
      });
    } catch (failure) {
      show(errorFromFailure(failure));
    } finally {
      setBusy(false);
    }
  };

  const invalid = (field: FormField) => error?.field === field;
  return (
    <DialogContent
      data-testid="register-dialog"
      title={SHELL_TEXT.join(PRODUCT_NAME)}
      titleAside={<Badge tone="cyan">Beta</Badge>}
      description="Create your player account and start competing in minutes."
      header={<DialogMark />}
      className="sm:max-w-xl"
    >
      <form ref={formRef} onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
        {errorSlot(error, null, errorId)}
        <AccountTypeField
          value={form.accountType}
          onChange={(v) => update('accountType', v)}
          invalid={invalid('accountType')}
          errorId={errorId}
          error={errorSlot(error, 'accountType', errorId)}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            field="fullName"
            label="Full name"
            error={error}
            errorId={errorId}
            autoComplete="name"
            placeholder="Alex Morgan"
            icon={<UserIcon />}
            value={form.fullName}
            onValue={(v) => update('fullName', v)}
          />
          <TextField
            field="username"
            label="Username"
            error={error}
            errorId={errorId}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="alexplays"
            icon={<AtSign />}
            value={form.username}
            onValue={(v) => update('username', v)}
          />
        </div>
        <TextField {...EMAIL_FIELD} error={error} errorId={errorId} value={form.email} onValue={(v) => update('email', v)} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            field="phone"
            label="Phone"
            error={error}
            errorId={errorId}
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            placeholder="+1 555 0100"
            icon={<Phone />}
            value={form.phone}
            onValue={(v) => update('phone', v)}
          />
          <TextField
            field="dateOfBirth"
            label="Date of birth"
            error={error}
            errorId={errorId}
            type="date"
            autoComplete="bday"
            max={today}
            icon={<CalendarDays />}
            value={form.dateOfBirth}
            onValue={onDateOfBirth}
          />
        </div>
        <TextField
          field="password"
          label="Password"
          hint={`At least ${ACCOUNT_RULES.minPasswordLength} characters.`}
          password
          error={error}
          errorId={errorId}
          autoComplete="new-password"
          placeholder="Create a password"
          value={form.password}
          onValue={(v) => update('password', v)}
        />
        <div data-field="ageVerified" className="grid gap-1.5">
          <Checkbox
            name="ageVerified"
            checked={form.ageVerified}
            onCheckedChange={(checked) => update('ageVerified', checked)}
            invalid={invalid('ageVerified')}
            label={
              <>
                I confirm I am {ACCOUNT_RULES.minAge} or older and agree to play fair.
                <span className="mt-0.5 flex items-center gap-1 text-xs text-muted">
                  <ShieldCheck className="size-3.5 text-success" aria-hidden /> Stakes are held in secure escrow.
                </span>
              </>
            }
          />
          {errorSlot(error, 'ageVerified', errorId)}
        </div>
        <Button type="submit" size="lg" loading={busy} className="mt-2 w-full">
          Create Account
        </Button>
      </form>
      <SwitchLine>
        Already have an account?{' '}
        <button type="button" onClick={onSwitch} className="font-semibold text-accent-2 underline-offset-4 hover:underline">
          Sign in
        </button>
      </SwitchLine>
    </DialogContent>
  );
}

function DialogMark() {
  return (
    <div aria-hidden className="mb-4 inline-flex size-11 items-center justify-center rounded-2xl bg-accent/15 ring-1 ring-accent/40">
      <Lock className="size-5 text-accent" />
    </div>
  );
}

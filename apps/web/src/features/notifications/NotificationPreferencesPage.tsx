import { useId, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Switch } from 'radix-ui';
import { Plus, X } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { NOTIFICATION_SETTINGS as T, NOTIFICATIONS } from '@versus/domain';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_PRIORITIES,
  type CategoryPreference,
  type NotificationCategory,
  type NotificationPreferences,
  type NotificationPriority,
} from '@versus/domain/notifications';
import { ApiError } from '../../api/index.ts';
import { useDocumentTitle } from '../../app/document-title.ts';
import { Button, Card, Input, cn } from '../../ui/index.ts';
import { LoadFailed, Loading } from '../../ui/QueryState.tsx';
import { useAuth } from '../auth/use-auth.ts';
import { notificationKeys, putPreferences } from './notifications.api.ts';
import {
  deviceTimeZone,
  fieldOfServerError,
  validatePreferences,
  type PreferenceErrors,
  type PreferenceField,
} from './preferences-form.ts';
import { useNotificationPreferences } from './use-notifications.ts';

const MAX_REMINDERS = 5;
const CHANNELS = ['enabled', 'sound', 'browser', 'push', 'email'] as const;

/** /settings/notifications (SPEC §3 Notification preferences), reached from Game Settings. */
export default function NotificationPreferencesPage() {
  useDocumentTitle(NOTIFICATIONS.preferencesTitle);
  const query = useNotificationPreferences();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-12" data-testid="notification-preferences">
      <h1 className="text-3xl font-black sm:text-4xl">{NOTIFICATIONS.preferencesTitle}</h1>
      <p className="mt-1 text-muted">{T.subtitle}</p>
      {query.isPending ? (
        <Loading padding="py-16" />
      ) : query.isError || !query.data ? (
        <LoadFailed className="mt-6" message={T.preferencesLoadFailed} retryLabel={T.retry} onRetry={() => void query.refetch()} />
      ) : (
        <PreferencesForm initial={query.data} />
      )}
    </div>
  );
}

function PreferencesForm({ initial }: { initial: NotificationPreferences }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [prefs, setPrefs] = useState<NotificationPreferences>(() => structuredClone(initial));
  const [errors, setErrors] = useState<PreferenceErrors>({});
  const [saving, setSaving] = useState(false);
  const dirty = JSON.stringify(prefs) !== JSON.stringify(initial);

  const update = (change: (draft: NotificationPreferences) => void) => {
    const next = structuredClone(prefs);
    change(next);
    setPrefs(next);
    // Once an error shows, it follows the player's fixes.
    if (Object.keys(errors).length > 0) {
      const result = validatePreferences(next);
      setErrors(result.ok ? {} : result.errors);
    }
  };
  const setCategory = (category: NotificationCategory, change: Partial<CategoryPreference>) =>
    update((p) => {
      p.categories[category] = { ...p.categories[category], ...change };
    });

  const save = async () => {
    const result = validatePreferences(prefs);
    if (!result.ok) {
      setErrors(result.errors);
      toast.error(NOTIFICATIONS.preferencesFailed, { description: T.fixErrors });
      return;
    }
    setSaving(true);
    try {
      const saved = await putPreferences(result.value);
      if (user) queryClient.setQueryData(notificationKeys.preferences(user.id), saved);
      setPrefs(structuredClone(saved));
      setErrors({});
      toast.success(NOTIFICATIONS.preferencesSaved);
    } catch (error) {
      const message = error instanceof Error ? error.message : NOTIFICATIONS.preferencesFailed;
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        setErrors({ [fieldOfServerError(error.field)]: message });
      }
      toast.error(NOTIFICATIONS.preferencesFailed, { description: message });
    } finally {
      setSaving(false);
    }
  };

  const g = prefs.general;
  return (
    <form
      className="mt-6 space-y-6"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {errors.form && <FormError id="form">{errors.form}</FormError>}

      <Section title={T.general}>
        <Toggle label={T.sound} hint={T.soundHint} checked={g.sound} onChange={(v) => update((p) => void (p.general.sound = v))} />
        <Toggle label={T.browser} hint={T.browserHint} checked={g.browser} onChange={(v) => update((p) => void (p.general.browser = v))} />
        <Toggle label={T.push} hint={T.pushHint} checked={g.push} onChange={(v) => update((p) => void (p.general.push = v))}>
          {g.push && <EnablePushButton />}
        </Toggle>
        <Toggle label={T.email} hint={T.emailHint} checked={g.email} onChange={(v) => update((p) => void (p.general.email = v))} />
        <Toggle
          label={T.batching}
          hint={T.batchingHint}
          checked={g.batching}
          onChange={(v) => update((p) => void (p.general.batching = v))}
        />
        <NumberField
          label={T.maxUnread}
          value={g.maxUnread}
          min={1}
          max={50}
          error={errors.maxUnread}
          field="maxUnread"
          onChange={(v) => update((p) => void (p.general.maxUnread = v))}
        />
        <div className="rounded-xl border border-border bg-bg/40 p-4">
          <Toggle
            label={T.quietHours}
            hint={T.quietHoursHint}
            checked={g.quietHours.enabled}
            onChange={(v) =>
              update((p) => {
                p.general.quietHours.enabled = v;
                if (v && p.general.quietHours.timeZone === 'UTC') p.general.quietHours.timeZone = deviceTimeZone();
              })
            }
          />
          {g.quietHours.enabled && (
            <div className="mt-3 grid gap-3 sm:grid-cols-3">
              <TimeField
                label={T.quietStart}
                value={g.quietHours.start}
                invalid={!!errors.quietHours}
                onChange={(v) => update((p) => void (p.general.quietHours.start = v))}
              />
              <TimeField
                label={T.quietEnd}
                value={g.quietHours.end}
                invalid={!!errors.quietHours}
                onChange={(v) => update((p) => void (p.general.quietHours.end = v))}
              />
              <LabeledInput
                label={T.timeZone}
                value={g.quietHours.timeZone}
                invalid={!!errors.timeZone}
                describedBy={errors.timeZone ? 'error-timeZone' : undefined}
                onChange={(v) => update((p) => void (p.general.quietHours.timeZone = v))}
              />
              {errors.quietHours && <FieldError id="quietHours">{errors.quietHours}</FieldError>}
              {errors.timeZone && <FieldError id="timeZone">{errors.timeZone}</FieldError>}
              <button
                type="button"
                className="justify-self-start text-xs font-semibold text-accent underline-offset-2 hover:underline sm:col-span-3"
                onClick={() => update((p) => void (p.general.quietHours.timeZone = deviceTimeZone()))}
              >
                {T.useDeviceZone}
              </button>
            </div>
          )}
        </div>
      </Section>

      <Section title={T.categories}>
        <ul className="space-y-3">
          {NOTIFICATION_CATEGORIES.map((c) => {
            const cat = prefs.categories[c];
            const name = T.categoryNames[c];
            return (
              <li key={c} className="rounded-xl border border-border bg-bg/40 p-3.5" data-testid={`category-${c}`}>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h3 className="font-bold">{name}</h3>
                  <label className="flex items-center gap-2 text-xs font-semibold text-muted">
                    {T.priority}
                    <select
                      aria-label={`${name}: ${T.priority}`}
                      value={cat.priority}
                      onChange={(e) => setCategory(c, { priority: e.target.value as NotificationPriority })}
                      className="h-8 rounded-lg border border-border bg-bg/60 px-2 text-sm text-fg outline-none focus:border-accent focus:ring-2 focus:ring-accent/20"
                    >
                      {NOTIFICATION_PRIORITIES.map((p) => (
                        <option key={p} value={p}>
                          {T.priorities[p]}
                        </option>
                      ))}
                    </select>
                  </label>
                </div>
                <div className="mt-3 flex flex-wrap gap-x-5 gap-y-3">
                  {CHANNELS.map((channel) => (
                    <ChannelSwitch
                      key={channel}
                      label={T.channels[channel]}
                      fullLabel={`${name}: ${T.channels[channel]}`}
                      checked={cat[channel]}
                      disabled={channel !== 'enabled' && !cat.enabled}
                      onChange={(v) => setCategory(c, { [channel]: v })}
                    />
                  ))}
                </div>
              </li>
            );
          })}
        </ul>
      </Section>

      <Section title={T.matchSection}>
        <Toggle label={T.reminders} checked={prefs.match.reminders} onChange={(v) => update((p) => void (p.match.reminders = v))} />
        <fieldset className="space-y-2" aria-describedby={errors.reminderMinutes ? 'error-reminderMinutes' : undefined}>
          <legend className="text-sm font-semibold">{T.reminderTimes}</legend>
          <div className="flex flex-wrap items-center gap-2" data-testid="reminder-minutes">
            {prefs.match.reminderMinutes.map((minutes, index) => (
              <div key={index} className="flex items-center gap-1 rounded-xl border border-border bg-bg/40 p-1 pl-2">
                <input
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={1440}
                  aria-label={T.reminderMinutes(index)}
                  aria-invalid={!!errors.reminderMinutes || undefined}
                  value={Number.isFinite(minutes) ? minutes : ''}
                  onChange={(e) =>
                    update((p) => void (p.match.reminderMinutes[index] = e.target.value === '' ? Number.NaN : Number(e.target.value)))
                  }
                  className={cn(
                    'h-8 w-16 rounded-lg border bg-bg/60 px-2 text-sm text-fg outline-none focus:border-accent',
                    errors.reminderMinutes ? 'border-danger' : 'border-border',
                  )}
                />
                <button
                  type="button"
                  aria-label={T.removeReminder(minutes)}
                  disabled={prefs.match.reminderMinutes.length <= 1}
                  onClick={() => update((p) => void p.match.reminderMinutes.splice(index, 1))}
                  className="inline-flex size-7 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg disabled:opacity-40"
                >
                  <X className="size-4" aria-hidden />
                </button>
              </div>
            ))}
            {prefs.match.reminderMinutes.length < MAX_REMINDERS && (
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() => update((p) => void p.match.reminderMinutes.push(Number.NaN))}
              >
                <Plus className="size-4" aria-hidden />
                {T.addReminder}
              </Button>
            )}
          </div>
          {errors.reminderMinutes && <FieldError id="reminderMinutes">{errors.reminderMinutes}</FieldError>}
        </fieldset>
        <Toggle label={T.turnAlerts} checked={prefs.match.turnAlerts} onChange={(v) => update((p) => void (p.match.turnAlerts = v))} />
        <Toggle
          label={T.resultAlerts}
          checked={prefs.match.resultAlerts}
          onChange={(v) => update((p) => void (p.match.resultAlerts = v))}
        />
      </Section>

      <Section title={T.challengeSection}>
        <Toggle label={T.accepted} checked={prefs.challenge.accepted} onChange={(v) => update((p) => void (p.challenge.accepted = v))} />
        <Toggle label={T.expiring} checked={prefs.challenge.expiring} onChange={(v) => update((p) => void (p.challenge.expiring = v))} />
        <Toggle
          label={T.newMatching}
          checked={prefs.challenge.newMatching}
          onChange={(v) => update((p) => void (p.challenge.newMatching = v))}
        />
        <NumberField
          label={T.reminderFrequency}
          value={prefs.challenge.reminderFrequencyHours}
          min={1}
          max={168}
          error={errors.reminderFrequency}
          field="reminderFrequency"
          onChange={(v) => update((p) => void (p.challenge.reminderFrequencyHours = v))}
        />
      </Section>

      <Section title={T.socialSection}>
        <Toggle
          label={T.friendRequests}
          checked={prefs.social.friendRequests}
          onChange={(v) => update((p) => void (p.social.friendRequests = v))}
        />
        <Toggle label={T.follows} checked={prefs.social.follows} onChange={(v) => update((p) => void (p.social.follows = v))} />
        <Toggle
          label={T.onlineStatus}
          checked={prefs.social.onlineStatus}
          onChange={(v) => update((p) => void (p.social.onlineStatus = v))}
        />
        <Toggle label={T.roomJoins} checked={prefs.social.roomJoins} onChange={(v) => update((p) => void (p.social.roomJoins = v))} />
      </Section>

      {/* Sticky on large screens only: on phones the bottom bar and floating buttons own the bottom edge. */}
      <div className="flex justify-end gap-2 rounded-2xl border border-border bg-surface/95 p-2.5 backdrop-blur lg:sticky lg:bottom-4 lg:z-10">
        <Button type="button" variant="ghost" size="sm" onClick={() => setPrefs(structuredClone(DEFAULT_NOTIFICATION_PREFERENCES))}>
          {T.reset}
        </Button>
        <Button type="submit" size="sm" loading={saving} disabled={!dirty && Object.keys(errors).length === 0}>
          {T.save}
        </Button>
      </div>
    </form>
  );
}

// ---------------------------------------------------------------------------------------------

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby={id} className="space-y-4">
        <h2 id={id} className="text-xs font-semibold tracking-wide text-muted uppercase">
          {title}
        </h2>
        {children}
      </section>
    </Card>
  );
}

function SwitchControl({
  label,
  checked,
  onChange,
  disabled,
  id,
  describedBy,
}: {
  label?: string;
  checked: boolean;
  onChange(v: boolean): void;
  disabled?: boolean;
  id?: string;
  describedBy?: string;
}) {
  return (
    <Switch.Root
      id={id}
      aria-label={label}
      aria-describedby={describedBy}
      checked={checked}
      disabled={disabled}
      onCheckedChange={onChange}
      className="relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border border-border bg-surface-2 transition-colors outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:cursor-not-allowed disabled:opacity-40 data-[state=checked]:border-accent data-[state=checked]:bg-accent"
    >
      <Switch.Thumb className="block size-4.5 translate-x-0.5 rounded-full bg-fg shadow transition-transform data-[state=checked]:translate-x-5.5 data-[state=checked]:bg-accent-fg" />
    </Switch.Root>
  );
}

function ChannelSwitch({
  label,
  fullLabel,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  fullLabel: string;
  checked: boolean;
  disabled: boolean;
  onChange(v: boolean): void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <SwitchControl id={id} label={fullLabel} checked={checked} disabled={disabled} onChange={onChange} />
      <label htmlFor={id} aria-hidden className={cn('cursor-pointer text-xs font-semibold', disabled && 'text-muted')}>
        {label}
      </label>
    </div>
  );
}

function Toggle({
  label,
  hint,
  checked,
  onChange,
  children,
}: {
  label: string;
  hint?: string;
  checked: boolean;
  onChange(v: boolean): void;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <div>
      <div className="flex items-center justify-between gap-4">
        <div className="min-w-0">
          <label htmlFor={id} className="block cursor-pointer text-sm font-semibold">
            {label}
          </label>
          {hint && (
            <p id={`${id}-hint`} className="text-xs text-muted">
              {hint}
            </p>
          )}
        </div>
        <SwitchControl id={id} checked={checked} onChange={onChange} describedBy={hint ? `${id}-hint` : undefined} />
      </div>
      {children}
    </div>
  );
}

function NumberField({
  label,
  value,
  min,
  max,
  error,
  field,
  onChange,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  error?: string;
  field: PreferenceField;
  onChange(v: number): void;
}) {
  const id = useId();
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={Number.isFinite(value) ? value : ''}
        invalid={!!error}
        aria-describedby={error ? `error-${field}` : undefined}
        onChange={(e) => onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
        className="h-9 w-24"
      />
      {error && <FieldError id={field}>{error}</FieldError>}
    </div>
  );
}

function TimeField({ label, value, invalid, onChange }: { label: string; value: string; invalid: boolean; onChange(v: string): void }) {
  return (
    <LabeledInput
      label={label}
      type="time"
      value={value}
      invalid={invalid}
      describedBy={invalid ? 'error-quietHours' : undefined}
      onChange={onChange}
    />
  );
}

function LabeledInput({
  label,
  value,
  invalid,
  describedBy,
  onChange,
  type = 'text',
}: {
  label: string;
  value: string;
  invalid: boolean;
  describedBy?: string;
  onChange(v: string): void;
  type?: string;
}) {
  const id = useId();
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-xs font-semibold text-muted">
        {label}
      </label>
      <Input
        id={id}
        type={type}
        value={value}
        invalid={invalid}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
        className="h-9"
      />
    </div>
  );
}

function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={`error-${id}`} role="alert" className="w-full text-sm text-danger sm:col-span-3" data-testid={`error-${id}`}>
      {children}
    </p>
  );
}

function FormError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <Card role="alert" className="border-danger/50 p-4 text-sm text-danger" data-testid={`error-${id}`}>
      {children}
    </Card>
  );
}

function EnablePushButton() {
  const [busy, setBusy] = useState(false);
  const enable = async () => {
    setBusy(true);
    try {
      // Loaded on demand: only this button needs the push client.
      const { enablePush } = await import('./push.ts');
      await enablePush();
      toast.success(T.pushEnabled);
    } catch (error) {
      toast.error(T.pushFailed, { description: error instanceof Error ? error.message : undefined });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button type="button" variant="secondary" size="sm" className="mt-2" loading={busy} onClick={() => void enable()}>
      {T.enablePush}
    </Button>
  );
}

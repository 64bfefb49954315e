import { useId, useState, type FormEvent } from 'react';
import { KeyRound } from 'lucide-react';
import { CHALLENGE_RULES } from '@versus/domain';
import { normalizeCode } from '@versus/domain/catalogue';
import type { Challenge } from '@versus/domain/challenges';
import { toast } from 'sonner';
import { Button, Input } from '../../ui/index.ts';
import { findChallengeByCode } from '../challenges/challenges.api.ts';
import { codeInputValue } from './code-input.ts';

/** SPEC §5 code search: exactly 6 characters, uppercased; opens the challenge it finds. */
export function CodeSearch({ onFound }: { onFound: (challenge: Challenge, code: string) => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const errorId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = normalizeCode(code);
    if (!checked.ok) {
      setError(checked.message);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      onFound(await findChallengeByCode(checked.code), checked.code);
      setCode('');
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-1.5" data-testid="code-search">
      <label htmlFor={inputId} className="text-xs font-semibold tracking-wide text-muted uppercase">
        Have a code?
      </label>
      <div className="flex gap-2">
        <div className="min-w-0 flex-1">
          <Input
            id={inputId}
            icon={<KeyRound aria-hidden />}
            value={code}
            onChange={(event) => {
              setCode(codeInputValue(event.target.value));
              setError(null);
            }}
            maxLength={CHALLENGE_RULES.codeLength}
            placeholder="ABC123"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            invalid={error !== null}
            aria-describedby={error ? errorId : undefined}
            className="font-mono tracking-[0.25em] uppercase placeholder:tracking-[0.25em]"
          />
        </div>
        <Button type="submit" variant="secondary" className="h-11" loading={busy}>
          Find
        </Button>
      </div>
      {error && (
        <p id={errorId} role="alert" className="text-xs font-semibold text-danger">
          {error}
        </p>
      )}
    </form>
  );
}

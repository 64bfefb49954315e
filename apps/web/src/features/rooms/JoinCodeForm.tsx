// "Join with a code" (SPEC §5): leads to the join screen, so the room shows before anything is staked.
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { LogIn } from 'lucide-react';
import { ROOM_SCREENS } from '@versus/domain';
import { normalizeRoomCode } from '@versus/domain/rooms';
import { Button, cn } from '../../ui/index.ts';
import { CodeInput } from '../marketplace/CodeInput.tsx';
import { joinPath } from '../join/join-target.ts';

export function JoinCodeForm({ className, hint = true }: { className?: string; hint?: boolean }) {
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ids = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = normalizeRoomCode(code);
    if (!checked.ok) {
      setError(checked.message);
      return;
    }
    setError(null);
    navigate(joinPath({ kind: 'room', code: checked.code }));
  };

  return (
    <form onSubmit={submit} noValidate className={cn('grid gap-1.5', className)} data-testid="join-code-form">
      <label htmlFor={`${ids}-code`} className="text-xs font-semibold tracking-wide text-muted uppercase">
        {ROOM_SCREENS.joinWithCode}
      </label>
      {hint && (
        <p id={`${ids}-hint`} className="text-xs text-muted">
          {ROOM_SCREENS.joinWithCodeHint}
        </p>
      )}
      {/* In the arena's narrow side column the button wraps under a box wide enough for the code. */}
      <div className="flex flex-wrap gap-2">
        <div className="min-w-36 flex-1">
          <CodeInput
            id={`${ids}-code`}
            value={code}
            onCode={(typed) => {
              setCode(typed);
              setError(null);
            }}
            placeholder="ABC234"
            invalid={error !== null}
            aria-describedby={[hint ? `${ids}-hint` : '', error ? `${ids}-error` : ''].filter(Boolean).join(' ') || undefined}
          />
        </div>
        <Button type="submit" variant="secondary" className="h-11">
          <LogIn className="size-4" aria-hidden />
          {ROOM_SCREENS.joinByCode}
        </Button>
      </div>
      {error && (
        <p id={`${ids}-error`} role="alert" className="text-xs font-semibold text-danger" data-testid="join-code-error">
          {error}
        </p>
      )}
    </form>
  );
}

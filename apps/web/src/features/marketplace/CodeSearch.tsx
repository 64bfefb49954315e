import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ROOM_SCREENS } from '@versus/domain';
import { normalizeCode } from '@versus/domain/catalogue';
import type { Challenge } from '@versus/domain/challenges';
import { toast } from 'sonner';
import { ApiError } from '../../api/index.ts';
import { Button } from '../../ui/index.ts';
import { findChallengeByCode } from '../challenges/challenges.api.ts';
import { joinPath } from '../join/join-target.ts';
import { previewRoom } from '../rooms/rooms.api.ts';
import { CodeInput } from './CodeInput.tsx';

const notFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/** One code box, whatever the code is for: an open private challenge, else a waiting room. */
async function findByCode(code: string): Promise<{ kind: 'challenge'; challenge: Challenge } | { kind: 'room' }> {
  try {
    return { kind: 'challenge', challenge: await findChallengeByCode(code) };
  } catch (error) {
    if (!notFound(error)) throw error;
  }
  try {
    await previewRoom(code);
    return { kind: 'room' };
  } catch (error) {
    throw notFound(error) ? new Error(ROOM_SCREENS.codeNotFound) : error;
  }
}

/** SPEC §5 code search, one box for a private challenge or a room; refusals show as the server words them. */
export function CodeSearch({ onFound }: { onFound: (challenge: Challenge, code: string) => void }) {
  const navigate = useNavigate();
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
      const found = await findByCode(checked.code);
      setCode('');
      if (found.kind === 'challenge') onFound(found.challenge, checked.code);
      else navigate(joinPath({ kind: 'room', code: checked.code }));
    } catch (failure) {
      const text = failure instanceof Error ? failure.message : String(failure);
      setError(text);
      toast.error(text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-1.5" data-testid="code-search">
      <label htmlFor={inputId} className="text-xs font-semibold tracking-wide text-muted uppercase">
        Have a code?
      </label>
      <div className="flex gap-2">
        <div className="min-w-0 flex-1">
          <CodeInput
            id={inputId}
            value={code}
            onCode={(typed) => {
              setCode(typed);
              setError(null);
            }}
            placeholder="ABC123"
            invalid={error !== null}
            aria-describedby={error ? errorId : undefined}
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

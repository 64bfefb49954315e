import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { MATCHES_SCREEN as T } from '@versus/domain';
import type { ChatMessage } from '@versus/domain/results';
import { Button, Input } from '../../ui/index.ts';
import { sendChat, useMatchChat } from './matches-api.ts';

/** The two players' chat of one match (admins read it): live, kept with the match. */
export function MatchChat({ matchId, readOnly = false }: { matchId: string; readOnly?: boolean }) {
  const messages = useMatchChat(matchId);
  return (
    <div className="rounded-lg border border-border bg-surface-2/50 p-3" data-testid="match-chat">
      <p className="mb-2 text-xs font-bold tracking-wider text-muted uppercase">{T.chat}</p>
      <ChatLines messages={messages ?? []} />
      {!readOnly && <ChatForm matchId={matchId} />}
    </div>
  );
}

export function ChatLines({ messages }: { messages: ChatMessage[] }) {
  if (messages.length === 0) return <p className="text-sm text-muted">{T.chatEmpty}</p>;
  return (
    <ul className="max-h-48 space-y-1 overflow-y-auto text-sm" aria-live="polite">
      {messages.map((m) => (
        <li key={m.id} className="break-words">
          <span className="font-bold">{m.username}</span>{' '}
          <span className="text-xs text-muted">{new Date(m.createdAt).toLocaleTimeString()}</span>
          <span className="block">{m.body}</span>
        </li>
      ))}
    </ul>
  );
}

function ChatForm({ matchId }: { matchId: string }) {
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!body.trim()) return;
    setBusy(true);
    try {
      await sendChat(matchId, body);
      setBody('');
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="mt-2 flex gap-2">
      <div className="min-w-0 flex-1">
        <Input value={body} onChange={(e) => setBody(e.target.value)} placeholder={T.chatPlaceholder} maxLength={500} aria-label={T.chat} />
      </div>
      <Button type="submit" size="sm" disabled={busy || !body.trim()}>
        {T.send}
      </Button>
    </form>
  );
}

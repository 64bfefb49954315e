// /share (the PWA share target) and /handle-protocol (SPEC §2): find the code and go to the join screen.
import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Share2 } from 'lucide-react';
import { ROOM_SCREENS } from '@versus/domain';
import { useDocumentTitle } from '../../app/document-title.ts';
import { Button, Card, Input } from '../../ui/index.ts';
import { BackHome, Problem } from './JoinPage.tsx';
import { joinPath, joinTargetFromProtocol, joinTargetFromShare, joinTargetInText } from './join-target.ts';

export default function SharePage({ mode }: { mode: 'share' | 'protocol' }) {
  const [params] = useSearchParams();
  useDocumentTitle(ROOM_SCREENS.shareTitleScreen);
  const target =
    mode === 'protocol'
      ? joinTargetFromProtocol(params.get('url'))
      : joinTargetFromShare({ title: params.get('title'), text: params.get('text'), url: params.get('url') });
  if (target) return <Navigate replace to={joinPath(target)} />;

  return (
    <div className="mx-auto grid w-full max-w-md gap-4 px-4 py-8 sm:py-14" data-testid="share-page">
      <div className="flex items-center justify-center gap-2">
        <Share2 className="size-5 text-accent" aria-hidden />
        <h1 className="text-2xl font-black tracking-tight">{ROOM_SCREENS.shareTitleScreen}</h1>
      </div>
      <Card className="grid gap-5 p-5 sm:p-6">
        <Problem home={false} message={mode === 'protocol' ? ROOM_SCREENS.protocolNothing : ROOM_SCREENS.shareNothing} />
        <CodeForm />
        <BackHome />
      </Card>
    </div>
  );
}

function CodeForm() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const target = joinTargetInText(text);
  return (
    <form
      className="grid gap-2 border-t border-border pt-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (target) navigate(joinPath(target));
      }}
    >
      <label htmlFor="share-code" className="text-xs font-semibold tracking-wide text-muted uppercase">
        {ROOM_SCREENS.enterCode}
      </label>
      <div className="flex gap-2">
        <Input
          id="share-code"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="ABC234"
          autoComplete="off"
          className="font-mono tracking-widest uppercase"
        />
        <Button type="submit" disabled={!target}>
          {ROOM_SCREENS.go}
        </Button>
      </div>
    </form>
  );
}

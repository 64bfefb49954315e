import { Link } from 'react-router';
import { Home } from 'lucide-react';
import { SHELL_TEXT } from '@versus/domain';
import { Button } from '../ui/Button.tsx';
import { useDocumentTitle } from './document-title.ts';

export default function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div
      className="relative mx-auto flex min-h-[70vh] max-w-xl flex-col items-center justify-center px-4 py-16 text-center"
      data-testid="not-found"
    >
      <div
        aria-hidden
        className="absolute top-1/2 left-1/2 -z-10 size-80 -translate-x-1/2 -translate-y-1/2 rounded-full bg-accent/20 blur-3xl"
      />
      <p aria-hidden className="text-brand font-display text-[7rem] leading-none font-black tracking-tighter sm:text-[9rem]">
        404
      </p>
      <h1 className="mt-4 text-3xl font-black sm:text-4xl">{SHELL_TEXT.notFound}</h1>
      <p className="mt-3 text-muted">This page left the arena. The match you are looking for may have moved or never existed.</p>
      <Button asChild size="lg" className="mt-8">
        <Link to="/">
          <Home className="size-5" aria-hidden />
          {SHELL_TEXT.returnHome}
        </Link>
      </Button>
    </div>
  );
}

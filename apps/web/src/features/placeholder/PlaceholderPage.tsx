import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeft, Hammer } from 'lucide-react';
import { SHELL_TEXT } from '@versus/domain';
import { useDocumentTitle } from '../../app/document-title.ts';
import { Badge, Button, Card } from '../../ui/index.ts';

export interface PlaceholderPageProps {
  title: string;
  /** One line on what the screen will do. */
  description?: string;
  icon?: ReactNode;
  /** Extra facts from the URL (a room code, a match id). */
  details?: { label: string; value: string }[];
}

/** A screen whose feature arrives with a later release: its title and a short "arrives soon" note. */
export default function PlaceholderPage({ title, description, icon, details }: PlaceholderPageProps) {
  useDocumentTitle(title);
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-12 lg:px-8" data-testid="placeholder-page">
      <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-xs font-bold tracking-[0.2em] text-accent uppercase">Versus</p>
          <h1 className="mt-2 text-3xl font-black sm:text-4xl">{title}</h1>
        </div>
        <Badge tone="cyan">Coming soon</Badge>
      </div>
      <Card className="relative overflow-hidden p-8 sm:p-12">
        <div aria-hidden className="absolute -top-24 -right-24 size-72 rounded-full bg-accent/20 blur-3xl" />
        <div aria-hidden className="absolute -bottom-24 -left-16 size-64 rounded-full bg-accent-2/10 blur-3xl" />
        <div className="relative flex flex-col items-center text-center">
          <div className="mb-5 inline-flex size-16 items-center justify-center rounded-2xl bg-accent/15 text-accent ring-1 ring-accent/40 [&>svg]:size-8">
            {icon ?? <Hammer aria-hidden />}
          </div>
          <p className="text-lg font-bold">{SHELL_TEXT.arrivesSoon}</p>
          {description && <p className="mt-2 max-w-md text-muted">{description}</p>}
          {details && details.length > 0 && (
            <dl className="mt-6 flex flex-wrap justify-center gap-3">
              {details.map((detail) => (
                <div key={detail.label} className="rounded-xl border border-border bg-bg/50 px-4 py-2 text-left">
                  <dt className="text-[0.7rem] font-semibold tracking-wide text-muted uppercase">{detail.label}</dt>
                  <dd className="selectable font-mono text-sm font-bold">{detail.value}</dd>
                </div>
              ))}
            </dl>
          )}
          <Button asChild variant="secondary" className="mt-8">
            <Link to="/">
              <ArrowLeft className="size-4" aria-hidden /> Back to Home
            </Link>
          </Button>
        </div>
      </Card>
    </div>
  );
}

import type { Evidence } from '@versus/domain/results';
import { MATCHES_SCREEN as T } from '@versus/domain';
import { useEvidenceUrl } from './matches-api.ts';

/** A thumbnail of an evidence image that opens the full image in a new tab. */
export function EvidenceThumb({ evidence }: { evidence: Evidence }) {
  const src = useEvidenceUrl(evidence.url);
  return (
    <a
      href={src ?? undefined}
      target="_blank"
      rel="noreferrer"
      className="inline-block size-16 overflow-hidden rounded-md border border-border bg-surface-2 align-middle"
      data-testid="evidence-thumb"
      title={T.evidence}
    >
      {src ? <img src={src} alt={T.evidence} className="size-full object-cover" /> : <span className="sr-only">{T.evidence}</span>}
    </a>
  );
}

import { useEffect } from 'react';
import { PRODUCT_NAME, TAGLINE } from '@versus/domain';

export const DEFAULT_TITLE = `${PRODUCT_NAME} — ${TAGLINE}`;

/** "Marketplace · Versus" while the screen is shown (the layout resets it on every route change). */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${PRODUCT_NAME}` : DEFAULT_TITLE;
  }, [title]);
}

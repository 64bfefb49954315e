import { useEffect, useState } from 'react';
import { authedSend } from './client.ts';

/** A bearer-protected file as an object URL, since an <img> cannot send the token; null while loading or on failure. */
export function useProtectedObjectUrl(url: string | null, what: string): string | null {
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!url) {
      setObjectUrl(null);
      return;
    }
    let made: string | null = null;
    let alive = true;
    authedSend(url)
      .then(async (response) => {
        if (!response.ok || !alive) return;
        made = URL.createObjectURL(await response.blob());
        setObjectUrl(made);
      })
      .catch((failure: unknown) => console.warn(`${what} could not be loaded`, failure));
    return () => {
      alive = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [url, what]);
  return objectUrl;
}

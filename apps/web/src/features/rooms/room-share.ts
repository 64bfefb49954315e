// Copy and share a room's code or link: the clipboard, and the Web Share API where present.
import { toast } from 'sonner';
import { ROOM_SCREENS } from '@versus/domain';

export async function copyText(text: string, done: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(done, { description: text });
    return true;
  } catch (error) {
    console.warn('Copying failed', error);
    toast.error(ROOM_SCREENS.copyFailed, { description: text });
    return false;
  }
}

export const canShare = (): boolean => typeof navigator !== 'undefined' && typeof navigator.share === 'function';

/** The system share sheet; a dismissed sheet is not an error. */
export async function shareRoom(data: { title: string; text: string; url: string }): Promise<void> {
  try {
    await navigator.share(data);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return;
    console.warn('Sharing failed', error);
    await copyText(data.url, ROOM_SCREENS.linkCopied);
  }
}

import type { ReactNode } from 'react';
import { Dialog as RadixDialog } from 'radix-ui';
import { X } from 'lucide-react';
import { cn } from './cn.ts';

export const Dialog = RadixDialog.Root;

/** SPEC §9: the dialog layer sits around z-index 10 million, above every overlay. */
export const DIALOG_Z = 'z-[10000000]';

export interface DialogContentProps {
  title: ReactNode;
  description?: ReactNode;
  /** Next to the title (a "Beta" badge). */
  titleAside?: ReactNode;
  /** Shown above the title (an icon or logo). */
  header?: ReactNode;
  children: ReactNode;
  className?: string;
  /** Hide the close button (the dialog still closes on Escape). */
  hideClose?: boolean;
  'data-testid'?: string;
}

/** A centred, accessible modal: focus is trapped, Escape and the overlay close it. */
export function DialogContent({ title, description, titleAside, header, children, className, hideClose, ...rest }: DialogContentProps) {
  return (
    <RadixDialog.Portal>
      <RadixDialog.Overlay
        className={cn(DIALOG_Z, 'fixed inset-0 bg-black/65 backdrop-blur-sm data-[state=open]:animate-[fade-in_160ms_ease-out]')}
      />
      <div className={cn(DIALOG_Z, 'pointer-events-none fixed inset-0 flex items-end justify-center sm:items-center sm:p-4')}>
        <RadixDialog.Content
          data-testid={rest['data-testid']}
          className={cn(
            'pointer-events-auto relative max-h-[calc(100dvh-1rem)] w-full overflow-y-auto rounded-t-3xl p-6 shadow-2xl shadow-black/50 sm:max-w-md sm:rounded-3xl sm:p-8',
            'border border-border bg-surface/95 backdrop-blur-xl data-[state=open]:animate-rise focus:outline-none',
            className,
          )}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div aria-hidden className="bg-brand absolute inset-x-8 top-0 h-px opacity-80" />
          {header}
          <div className="flex items-center gap-2 pr-8">
            <RadixDialog.Title className="text-2xl font-extrabold tracking-tight">{title}</RadixDialog.Title>
            {titleAside}
          </div>
          {description && <RadixDialog.Description className="mt-1 text-sm text-muted">{description}</RadixDialog.Description>}
          <div className="mt-6">{children}</div>
          {!hideClose && (
            <RadixDialog.Close
              aria-label="Close"
              className="absolute top-4 right-4 inline-flex size-9 items-center justify-center rounded-full text-muted transition-colors hover:bg-surface-2 hover:text-fg"
            >
              <X className="size-5" aria-hidden />
            </RadixDialog.Close>
          )}
        </RadixDialog.Content>
      </div>
    </RadixDialog.Portal>
  );
}

/** A dialog's buttons: stacked with the main one on top on a phone, in a row to the right from `sm`. */
export function DialogActions({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)}>{children}</div>;
}

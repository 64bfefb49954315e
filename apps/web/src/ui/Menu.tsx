import type { ComponentProps, ReactNode } from 'react';
import { DropdownMenu, Popover as RadixPopover } from 'radix-ui';
import { cn } from './cn.ts';

const PANEL =
  'z-[1000] min-w-56 rounded-2xl border border-border bg-surface/95 p-1.5 backdrop-blur-xl shadow-2xl shadow-black/40 data-[state=open]:animate-rise focus:outline-none';

/** Not modal, so the page behind is not aria-hidden from screen readers while its controls stay focusable. */
export function Menu(props: ComponentProps<typeof DropdownMenu.Root>) {
  return <DropdownMenu.Root modal={false} {...props} />;
}
export const MenuTrigger = DropdownMenu.Trigger;

export function MenuContent({ className, children, ...props }: ComponentProps<typeof DropdownMenu.Content>) {
  return (
    <DropdownMenu.Portal>
      <DropdownMenu.Content sideOffset={8} align="end" collisionPadding={8} className={cn(PANEL, className)} {...props}>
        {children}
      </DropdownMenu.Content>
    </DropdownMenu.Portal>
  );
}

/** A menu entry with an optional leading icon (use onSelect to act or navigate). */
export function MenuItem({
  className,
  icon,
  children,
  ...props
}: Omit<ComponentProps<typeof DropdownMenu.Item>, 'asChild'> & { icon?: ReactNode }) {
  return (
    <DropdownMenu.Item
      className={cn(
        'flex h-10 cursor-pointer items-center gap-3 rounded-xl px-3 text-sm font-medium text-fg outline-none select-none',
        'data-[highlighted]:bg-surface-2 data-[highlighted]:text-fg data-[disabled]:pointer-events-none data-[disabled]:opacity-50',
        '[&>svg]:size-4 [&>svg]:text-muted',
        className,
      )}
      {...props}
    >
      {icon}
      {children}
    </DropdownMenu.Item>
  );
}

export function MenuLabel({ className, ...props }: ComponentProps<typeof DropdownMenu.Label>) {
  return (
    <DropdownMenu.Label className={cn('px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-muted uppercase', className)} {...props} />
  );
}

export function MenuSeparator({ className, ...props }: ComponentProps<typeof DropdownMenu.Separator>) {
  return <DropdownMenu.Separator className={cn('my-1.5 h-px bg-border', className)} {...props} />;
}

export const Popover = RadixPopover.Root;
export const PopoverTrigger = RadixPopover.Trigger;

export function PopoverContent({ className, children, ...props }: ComponentProps<typeof RadixPopover.Content>) {
  return (
    <RadixPopover.Portal>
      <RadixPopover.Content sideOffset={8} align="end" collisionPadding={8} className={cn(PANEL, className)} {...props}>
        {children}
      </RadixPopover.Content>
    </RadixPopover.Portal>
  );
}

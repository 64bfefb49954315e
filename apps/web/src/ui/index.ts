export { cn } from './cn.ts';
export { Button, Spinner } from './Button.tsx';
export { Badge, type BadgeTone } from './Badge.tsx';
export { Card } from './Card.tsx';
export { Dialog, DialogContent } from './Dialog.tsx';
export { Input, PasswordInput, Field, type InputProps } from './Field.tsx';
export { Checkbox } from './Checkbox.tsx';
export { ChoiceCards, type Choice } from './ChoiceCards.tsx';
export { Menu, MenuTrigger, MenuContent, MenuItem, MenuLabel, MenuSeparator, Popover, PopoverTrigger, PopoverContent } from './Menu.tsx';

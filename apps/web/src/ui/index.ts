export { cn } from './cn.ts';
export { Button, Spinner, type ButtonProps, type ButtonVariant, type ButtonSize } from './Button.tsx';
export { Badge, type BadgeTone } from './Badge.tsx';
export { Card } from './Card.tsx';
export { Dialog, DialogTrigger, DialogClose, DialogContent, DIALOG_Z, type DialogContentProps } from './Dialog.tsx';
export { Input, PasswordInput, Field, type InputProps, type FieldProps } from './Field.tsx';
export { Checkbox, type CheckboxProps } from './Checkbox.tsx';
export { ChoiceCards, type Choice, type ChoiceCardsProps } from './ChoiceCards.tsx';
export { Menu, MenuTrigger, MenuContent, MenuItem, MenuLabel, MenuSeparator, Popover, PopoverTrigger, PopoverContent } from './Menu.tsx';

import { KeyRound } from 'lucide-react';
import { CHALLENGE_RULES } from '@versus/domain';
import { Input, type InputProps } from '../../ui/index.ts';
import { codeInputValue } from './code-input.ts';

/** A 6-character code box (a private challenge's or a room's): upper case, no spaces, as typed. */
export function CodeInput({
  onCode,
  ...props
}: Omit<InputProps, 'onChange' | 'value'> & { value: string; onCode: (code: string) => void }) {
  return (
    <Input
      icon={<KeyRound aria-hidden />}
      onChange={(event) => onCode(codeInputValue(event.target.value))}
      maxLength={CHALLENGE_RULES.codeLength}
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      className="font-mono tracking-[0.25em] uppercase placeholder:tracking-[0.25em]"
      {...props}
    />
  );
}

// A one-line text field: printable keys type, Backspace erases, Enter submits, Esc cancels.
import { Text, useInput } from 'ink';
import { useRef } from 'react';

export interface TextFieldProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly onSubmit: (value: string) => void;
  readonly onCancel?: () => void;
  readonly active?: boolean;
}

export function TextField({ value, onChange, onSubmit, onCancel, active = true }: TextFieldProps) {
  // The text as typed so far, ahead of React's next render (keys can come several per chunk).
  const text = useRef(value);
  text.current = value;
  const change = (next: string) => {
    text.current = next;
    onChange(next);
  };
  useInput(
    (input, key) => {
      if (key.return) onSubmit(text.current);
      else if (key.escape) onCancel?.();
      else if (key.backspace || key.delete) change(text.current.slice(0, -1));
      else if (input && !key.ctrl && !key.meta && !key.upArrow && !key.downArrow && !key.tab) change(text.current + input);
    },
    { isActive: active },
  );
  return (
    <Text>
      {value}
      <Text inverse> </Text>
    </Text>
  );
}

// A one-line text field: printable keys type, Backspace erases, Enter submits, Esc cancels.
import { Text, useInput } from 'ink';

export interface TextFieldProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly onSubmit: (value: string) => void;
  readonly onCancel?: () => void;
  readonly active?: boolean;
}

export function TextField({ value, onChange, onSubmit, onCancel, active = true }: TextFieldProps) {
  useInput(
    (input, key) => {
      if (key.return) onSubmit(value);
      else if (key.escape) onCancel?.();
      else if (key.backspace || key.delete) onChange(value.slice(0, -1));
      else if (input && !key.ctrl && !key.meta && !key.upArrow && !key.downArrow && !key.tab) onChange(value + input);
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

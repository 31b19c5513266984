import type { CustomCellEditorProps } from 'ag-grid-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { EntityRow } from './entity-api';
import { inlineKeyAllowed, type InlineField } from './inline-edit';

/** What the grid hands the editor besides its own props: the declared field, for its key rule. */
export interface InlineAmountEditorParams {
  field: InlineField;
}

type Props = CustomCellEditorProps<EntityRow, string> & InlineAmountEditorParams;

/**
 * The text the editor starts with. A digit that started the edit replaces the value (as in a spreadsheet);
 * Backspace or Delete start empty; any other start (double click, Enter, F2, a refused key) keeps the
 * stored value to change.
 */
function startText(field: InlineField, value: unknown, eventKey: string | null): string {
  if (eventKey === 'Backspace' || eventKey === 'Delete') return '';
  if (eventKey !== null && eventKey.length === 1 && /^\d$/.test(eventKey) && inlineKeyAllowed(field, '', eventKey)) return eventKey;
  return value === null || value === undefined ? '' : String(value);
}

/**
 * In-place editor of a money or number cell: a plain input that takes digits and one decimal point and
 * refuses a keystroke that would make the value negative. It only collects text; whether the text is a
 * valid amount is decided on commit (inlineCommit), where an invalid one is ignored and the old value kept.
 */
export function InlineAmountEditor({ value, onValueChange, eventKey, field, colDef }: Props) {
  const [text, setText] = useState(() => startText(field, value, eventKey));
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    // The grid reads the editor's value from onValueChange only; report the start text even if unchanged.
    onValueChange(text);
    const input = inputRef.current;
    if (!input) return;
    input.focus();
    // Editing the stored value: select it, so typing replaces it and arrows still reach single digits.
    if (text !== '' && text === String(value ?? '')) input.select();
    // Start-up only: later changes are reported by onChange.
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    // Shortcuts (copy, paste, select all) are not characters of the value.
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const input = e.currentTarget;
    if (!inlineKeyAllowed(field, input.value, e.key, input.selectionStart, input.selectionEnd)) e.preventDefault();
  };

  return (
    <input
      ref={inputRef}
      className="ag-input-field-input"
      style={{ width: '100%', height: '100%', textAlign: 'right', border: 'none', padding: '0 8px', font: 'inherit' }}
      // Plain text, not type=number: the browser's number input would accept '-' and 'e' and hide the caret.
      inputMode="decimal"
      autoComplete="off"
      aria-label={colDef.headerName ?? field.label}
      value={text}
      onKeyDown={onKeyDown}
      onChange={(e) => {
        setText(e.currentTarget.value);
        onValueChange(e.currentTarget.value);
      }}
      data-testid="inline-amount-editor"
    />
  );
}

import { entity } from '@campus/entities/registry';
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createInstance, type i18n } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import english from '../../public/assets/language/english.json';
import { ActionDialog } from './action-dialog';
import type { Translate } from './entity-labels';
import { actionOptions, fieldButtonBody, flipped, oneSelected, permittedFieldButtons } from './field-buttons';

const examType = entity('exam_type');
const english_t: Translate = (_key, o) => o.defaultValue;

describe('field buttons of the grid toolbar', () => {
  it('shows exam type its take action button only when the user holds it', () => {
    expect(permittedFieldButtons(examType, (b) => b === 'take_action')).toEqual([
      { kind: 'action', button: 'take_action', label: 'Take Action', field: 'exmtyp_sts' },
    ]);
    expect(permittedFieldButtons(examType, (b) => b === 'edit')).toEqual([]);
  });

  it('keeps toggles in the same list, as toggles', () => {
    expect(permittedFieldButtons(entity('tender_type'), () => true).map((b) => [b.kind, b.button])).toEqual([['toggle', 'turn_on_off']]);
  });

  it('needs exactly one selected row, in the spec wording', () => {
    expect(oneSelected(english_t, 'Exam Type', [])).toEqual({ problem: 'Please select the Exam Type records' });
    expect(oneSelected(english_t, 'Exam Type', [{ exmtyp_cd: 1 }, { exmtyp_cd: 2 }])).toEqual({ problem: 'Please select exactly one Exam Type record' });
    expect(oneSelected(english_t, 'Exam Type', [{ exmtyp_cd: 1 }])).toEqual({ row: { exmtyp_cd: 1 } });
  });

  it('puts the one field with the row_ver it was read at, and flips toggles however they are spelled', () => {
    expect(fieldButtonBody({ exmtyp_cd: 3, exmtyp_sts: 'Draft', row_ver: 4 }, 'exmtyp_sts', 'Scheduled')).toEqual({ exmtyp_sts: 'Scheduled', row_ver: 4 });
    expect(flipped({ on: 1 }, 'on')).toBe(false);
    expect(flipped({ on: 'false' }, 'on')).toBe(true);
    expect(actionOptions(examType, 'exmtyp_sts')).toEqual(['Draft', 'Scheduled', 'Completed', 'Published']);
  });
});

describe('ActionDialog', () => {
  let lang: i18n;

  beforeEach(async () => {
    // jsdom has no matchMedia; Mantine asks it for the colour scheme.
    vi.stubGlobal('matchMedia', vi.fn(() => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined })));
    lang = createInstance();
    await lang.use(initReactI18next).init({ lng: 'english', resources: { english: { translation: english } }, interpolation: { escapeValue: false } });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  function open(onConfirm = vi.fn(), onCancel = vi.fn()) {
    render(
      <MantineProvider>
        <I18nextProvider i18n={lang}>
          <ActionDialog opened title="Take Action" fieldLabel="Status" options={actionOptions(examType, 'exmtyp_sts')} current="Draft" busy={false} onCancel={onCancel} onConfirm={onConfirm} />
        </I18nextProvider>
      </MantineProvider>,
    );
    return { onConfirm, onCancel };
  }

  it('lists every status with the current one marked and chosen, and saves only another one', () => {
    const { onConfirm } = open();
    expect(screen.getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['Draft', 'Scheduled', 'Completed', 'Published']);
    expect((screen.getByLabelText('Draft') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId('action-current').parentElement?.textContent).toContain('Draft');
    expect(screen.getAllByTestId('action-current')).toHaveLength(1);
    const save = screen.getByTestId('action-save');
    expect((save as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('Scheduled'));
    expect((save as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(save);
    expect(onConfirm).toHaveBeenCalledWith('Scheduled');
  });

  it('cancels without saving', () => {
    const { onConfirm, onCancel } = open();
    fireEvent.click(screen.getByText('Cancel'));
    expect(onCancel).toHaveBeenCalled();
    expect(onConfirm).not.toHaveBeenCalled();
  });
});

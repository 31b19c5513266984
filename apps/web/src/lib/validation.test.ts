import { religion } from '@campus/entities/master/religion.entity';
import { employee } from '@campus/entities/employee/employee.entity';
import { requiredMessage, type Field } from '@campus/entities/define';
import { describe, expect, it } from 'vitest';
import { firstMissingForEntity } from '../engine/form-values';
import {
  discountAmount,
  discountPercent,
  exactlyOneMessage,
  firstMissingRequired,
  formFieldsFromDom,
  imageAccept,
  imageUploadError,
  keystrokeMakesNegative,
  localRequiredMessage,
  parseTypedDate,
  noSelectionMessage,
  preventNegativeKeystroke,
  requiredFieldMessage,
  selectionProblem,
  type FormFieldState,
} from './validation';

describe('required fields', () => {
  it('words the message by control kind, placeholder before label', () => {
    expect(requiredFieldMessage({ control: 'select', label: 'Role' })).toBe("Please select the 'Role'.");
    expect(requiredFieldMessage({ control: 'multiselect', label: 'Classes', placeholder: 'Pick classes' })).toBe("Please select the 'Pick classes'.");
    expect(requiredFieldMessage({ control: 'input', inputType: 'text', label: 'Name' })).toBe("Please enter the 'Name'.");
    expect(requiredFieldMessage({ control: 'input', inputType: 'email', placeholder: 'E-mail' })).toBe("Please enter the 'E-mail'.");
    expect(requiredFieldMessage({ control: 'textarea', label: 'Description' })).toBe("Please enter the 'Description'.");
    expect(requiredFieldMessage({ control: 'input', inputType: 'date', label: 'Date of joining' })).toBe("Please fill the 'Date of joining'.");
    expect(requiredFieldMessage({ control: 'input', inputType: 'number', label: 'Order' })).toBe("Please fill the 'Order'.");
  });

  it('falls back to Dropdown, Input value and Field', () => {
    expect(requiredFieldMessage({ control: 'select' })).toBe("Please select the 'Dropdown'.");
    expect(requiredFieldMessage({ control: 'input', inputType: 'text', label: '' })).toBe("Please enter the 'Input value'.");
    expect(requiredFieldMessage({ control: 'other' })).toBe("Please fill the 'Field'.");
  });

  it('finds the first empty required control', () => {
    const fields: FormFieldState[] = [
      { name: 'a', control: 'input', inputType: 'text', required: true, value: 'x', label: 'A' },
      { name: 'b', control: 'input', inputType: 'text', required: false, value: '', label: 'B' },
      { name: 'c', control: 'multiselect', required: true, value: [], label: 'C' },
      { name: 'd', control: 'select', required: true, value: '', label: 'D' },
    ];
    expect(firstMissingRequired(fields)).toEqual({ fieldName: 'c', message: "Please select the 'C'." });
    expect(firstMissingRequired(fields.slice(0, 2))).toBeNull();
  });

  it('treats whitespace, null and NaN as empty, and 0 and false as values', () => {
    const f = (value: unknown): FormFieldState => ({ name: 'n', control: 'input', inputType: 'text', required: true, value, label: 'N' });
    expect(firstMissingRequired([f('   ')])).not.toBeNull();
    expect(firstMissingRequired([f(null)])).not.toBeNull();
    expect(firstMissingRequired([f(Number.NaN)])).not.toBeNull();
    expect(firstMissingRequired([f(0)])).toBeNull();
    expect(firstMissingRequired([f(false)])).toBeNull();
  });

  it('applies to an entity declaration', () => {
    expect(firstMissingForEntity(religion, {})).toEqual({ fieldName: 'rgn_nm', message: expect.stringMatching(/^Please enter the '/) });
    expect(firstMissingForEntity(religion, { rgn_nm: 'Hindu' })).toBeNull();
    const problem = firstMissingForEntity(employee, { usr_nm: 'ABC', usr_full_nm: 'A B' });
    expect(problem).toEqual({ fieldName: 'usr_typ', message: "Please select the 'Role'." });
  });

  it('reads a rendered form', () => {
    document.body.innerHTML = `
      <form>
        <label for="nm">Name *</label><input id="nm" name="nm" required value="Ann" />
        <input name="secret" type="hidden" required />
        <textarea name="dscr" required placeholder="Description"></textarea>
        <select name="gnd" required aria-label="Gender"><option value="">--</option><option>Male</option></select>
        <div data-control="multiselect" data-value="" name="cls" data-label="Classes" aria-required="true"><input placeholder="inner" required /></div>
      </form>`;
    const fields = formFieldsFromDom(document.body);
    expect(fields.map((f) => f.name)).toEqual(['nm', 'dscr', 'gnd', 'cls']);
    expect(fields[0]!.label).toBe('Name');
    expect(firstMissingRequired(fields)).toEqual({ fieldName: 'dscr', message: "Please enter the 'Description'." });
    (document.querySelector('textarea') as HTMLTextAreaElement).value = 'x';
    expect(firstMissingRequired(formFieldsFromDom(document.body))).toEqual({ fieldName: 'gnd', message: "Please select the 'Gender'." });
    (document.querySelector('select') as HTMLSelectElement).value = 'Male';
    expect(firstMissingRequired(formFieldsFromDom(document.body))).toEqual({ fieldName: 'cls', message: "Please select the 'Classes'." });
  });
});

describe('image upload', () => {
  it.each(['a.jpg', 'b.PNG', 'c.jpeg', 'd.bmp', 'e.gif', 'f.svg', 'g.ico'])('accepts %s', (name) => {
    expect(imageUploadError(name)).toBeNull();
  });

  it('refuses other files, and pdf unless allowed', () => {
    expect(imageUploadError('x.exe')).toBe('Please upload only image file');
    expect(imageUploadError('noext')).toBe('Please upload only image file');
    expect(imageUploadError('scan.pdf')).toBe('Please upload only image file');
    expect(imageUploadError('scan.pdf', { allowPdf: true })).toBeNull();
    expect(imageUploadError('x.jpg.exe', { allowPdf: true })).toBe('Please upload only image file');
  });

  it('builds the accept attribute', () => {
    expect(imageAccept()).toBe('.jpg,.png,.jpeg,.bmp,.gif,.svg,.ico');
    expect(imageAccept({ allowPdf: true }).endsWith(',.pdf')).toBe(true);
  });
});

describe('numeric keystrokes', () => {
  it('refuses a minus that would make the value negative', () => {
    expect(keystrokeMakesNegative('', '-')).toBe(true);
    expect(keystrokeMakesNegative('12', '-', 0, 0)).toBe(true);
    expect(keystrokeMakesNegative('12', '-')).toBe(false);
    expect(keystrokeMakesNegative('12', '3')).toBe(false);
    expect(keystrokeMakesNegative('-', '5')).toBe(true);
    expect(keystrokeMakesNegative('-5', '5', 0, 1)).toBe(false);
  });

  it('never refuses control keys', () => {
    expect(keystrokeMakesNegative('-5', 'Backspace')).toBe(false);
    expect(keystrokeMakesNegative('', 'ArrowLeft')).toBe(false);
  });

  it('prevents the event on an input', () => {
    const input = document.createElement('input');
    input.value = '';
    let prevented = false;
    preventNegativeKeystroke({ key: '-', ctrlKey: false, metaKey: false, altKey: false, currentTarget: input, preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    prevented = false;
    preventNegativeKeystroke({ key: '7', ctrlKey: false, metaKey: false, altKey: false, currentTarget: input, preventDefault: () => (prevented = true) });
    expect(prevented).toBe(false);
  });
});

describe('selection messages', () => {
  it('words the messages with the table name', () => {
    expect(noSelectionMessage('Religion')).toBe('Please select the Religion records');
    expect(exactlyOneMessage('Religion')).toBe('Please select exactly one Religion record');
  });

  it('checks the selection count', () => {
    expect(selectionProblem('Role', 0, 'some')).toBe('Please select the Role records');
    expect(selectionProblem('Role', 3, 'some')).toBeNull();
    expect(selectionProblem('Role', 0, 'one')).toBe('Please select exactly one Role record');
    expect(selectionProblem('Role', 2, 'one')).toBe('Please select exactly one Role record');
    expect(selectionProblem('Role', 1, 'one')).toBeNull();
  });
});

describe('discount', () => {
  it('computes the amount from percent and base', () => {
    expect(discountAmount('10', '2500')).toBe('250.00');
    expect(discountAmount('12.5', '999.99')).toBe('125.00');
    expect(discountAmount(33.33, 100)).toBe('33.33');
    expect(discountAmount('0.5', '1.01')).toBe('0.01');
  });

  it('computes the percent from amount and base', () => {
    expect(discountPercent('250', '2500')).toBe('10.00');
    expect(discountPercent('1', '3')).toBe('33.33');
    expect(discountPercent('2', '3')).toBe('66.67');
  });

  it('gives 0.00 when either input is zero or empty', () => {
    expect(discountAmount('', '100')).toBe('0.00');
    expect(discountAmount('10', '0')).toBe('0.00');
    expect(discountAmount(null, undefined)).toBe('0.00');
    expect(discountPercent('50', '')).toBe('0.00');
    expect(discountPercent('0.00', '100')).toBe('0.00');
    expect(discountPercent('abc', '100')).toBe('0.00');
  });
});

describe('required-field toast in the user language', () => {
  const kinds: Field['kind'][] = ['code', 'text', 'number', 'money', 'date', 'time', 'datetime', 'bool', 'select', 'link', 'image', 'file', 'json', 'password'];

  it('words English exactly as the shared requiredMessage, fallbacks included', () => {
    for (const kind of kinds) {
      expect(localRequiredMessage({ kind, label: 'Class' })).toBe(requiredMessage({ kind, label: 'Class' }));
      expect(localRequiredMessage({ kind, label: '' })).toBe(requiredMessage({ kind, label: '' }));
    }
  });

  it('asks the language for the sentence and for the fallback label', () => {
    const asked: string[] = [];
    const t = (key: string, o: { defaultValue: string; [k: string]: string | number }): string => {
      asked.push(key);
      return key.startsWith('validation.fallback') ? 'புலம்' : `${String(o.label)} :: ${key}`;
    };
    expect(localRequiredMessage({ kind: 'link', label: 'வகுப்பு' }, t)).toBe('வகுப்பு :: validation.required_select');
    expect(localRequiredMessage({ kind: 'date', label: '' }, t)).toBe('புலம் :: validation.required_fill');
    expect(asked).toEqual(['validation.required_select', 'validation.fallback_fill', 'validation.required_fill']);
  });
});

describe('typed dates', () => {
  it('reads the display format and the forms an office types', () => {
    for (const typed of ['2014/Mar/25', '2014/MAR/25', '2014-03-25', '2014/3/25', '25/03/2014', '25-03-2014', '25.3.2014', '25 Mar 2014', '25-March-2014', ' 25/03/2014 ']) {
      expect(parseTypedDate(typed), typed).toBe('2014-03-25');
    }
  });

  it('refuses what is not a whole, real date', () => {
    for (const typed of ['', '25/03/20', '2014/Mar', '31/04/2014', '29/02/2023', '2014/Foo/25', '13/13/2014', 'tomorrow', '25/03/2014x']) {
      expect(parseTypedDate(typed), typed).toBeNull();
    }
    expect(parseTypedDate('29/02/2024')).toBe('2024-02-29');
  });
});

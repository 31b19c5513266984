import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiUrl, bodySchema, bool, code, createdValue, date, defineEntity, fieldButtons, fieldSchema, image, link, money, number, password, rangeIssues, requiredMessage, select, text, workflowInputSchema } from './define';
import { entities, entity, relatedIssues, workflowOpensIssues } from './registry';
import { findPage } from './pages';

describe('body schema from a declaration', () => {
  const religion = entity('religion');
  it('refuses a create without the required name, in the spec wording', () => {
    const r = bodySchema(religion, 'create').safeParse({ rgn_desc: 'x' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe("Please enter the 'Religion Name'.");
  });
  it('accepts a patch without the required field, but not one that empties it', () => {
    expect(bodySchema(religion, 'update').safeParse({ rgn_desc: 'x' }).success).toBe(true);
    expect(bodySchema(religion, 'update').safeParse({ rgn_nm: '  ' }).success).toBe(false);
  });
  it('refuses unknown fields and server-only fields', () => {
    expect(bodySchema(religion, 'create').safeParse({ rgn_nm: 'A', rgn_cd: 5 }).success).toBe(false);
    expect(bodySchema(religion, 'create').safeParse({ rgn_nm: 'A', inst_cd: 2 }).success).toBe(false);
  });
  it('keeps money exact as a decimal string with at most 2 decimals', () => {
    const s = bodySchema(
      { ...religion, fields: { ...religion.fields, amt: { kind: 'money', label: 'Amount', max: 1e9 } } },
      'create',
    );
    expect(s.safeParse({ rgn_nm: 'A', amt: '1200.50' }).data?.amt).toBe('1200.50');
    expect(s.safeParse({ rgn_nm: 'A', amt: '12.345' }).success).toBe(false);
  });
  it('words the required message by field kind, with the spec fallbacks', () => {
    expect(requiredMessage({ kind: 'select', label: '' })).toBe("Please select the 'Dropdown'.");
    expect(requiredMessage({ kind: 'text', label: '' })).toBe("Please enter the 'Input value'.");
    expect(requiredMessage({ kind: 'date', label: '' })).toBe("Please fill the 'Field'.");
    expect(requiredMessage({ kind: 'link', label: 'Role' })).toBe("Please select the 'Role'.");
  });
  it('joins API paths with exactly one slash', () => {
    expect(apiUrl(religion, 5)).toBe('/api/religion/5');
    expect(apiUrl(entity('login_history'), 5)).toBe('/api/login_history/loginhistory/5');
  });
});

describe('multiple select', () => {
  const collected = select({ label: 'Collected From', options: ['Student', 'Employee', 'Institute'], multiple: true });
  const parse = (v: unknown) => fieldSchema(collected).safeParse(v);

  it('keeps the single select API: one option, refused otherwise', () => {
    const one = select({ label: 'For', options: ['Student', 'Employee'] });
    expect(one.multiple).toBeUndefined();
    expect(fieldSchema(one).safeParse('Student').data).toBe('Student');
    expect(fieldSchema(one).safeParse('Student,Employee').success).toBe(false);
  });

  it('accepts an array or a comma string and stores the comma string in declared option order', () => {
    expect(parse(['Institute', 'Student']).data).toBe('Student,Institute');
    expect(parse('Institute,Student').data).toBe('Student,Institute');
    expect(parse('Employee').data).toBe('Employee');
  });

  it('trims and drops duplicates and blanks', () => {
    expect(parse(' Employee , Student,Employee,, ').data).toBe('Student,Employee');
    expect(parse(['Student', ' Student ']).data).toBe('Student');
  });

  it('refuses values not in the options, naming the field and the stray values', () => {
    const r = parse(['Student', 'Parent', 'Parent']);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe("'Collected From' may hold only Student, Employee, Institute; not 'Parent'.");
    // Options are matched exactly, like a single select.
    expect(parse('student').success).toBe(false);
    expect(parse(5).error?.issues[0].message).toContain("'Collected From'");
  });

  it('treats an empty choice as empty: null when optional, the select message when required', () => {
    const entityWith = (required: boolean) =>
      defineEntity({
        name: 'doc',
        table: 'doc',
        key: 'cd',
        scope: 'global',
        label: 'Doc',
        title: 'nm',
        fields: { cd: code(), nm: text({ label: 'Name' }), frm: { ...collected, required } },
      });
    const optional = bodySchema(entityWith(false), 'create');
    expect(optional.safeParse({ nm: 'A', frm: [] }).data?.frm).toBeNull();
    expect(optional.safeParse({ nm: 'A', frm: ' , ' }).data?.frm).toBeNull();
    const required = bodySchema(entityWith(true), 'create');
    for (const empty of [[], '', ' , ', null]) {
      const r = required.safeParse({ nm: 'A', frm: empty });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0].message).toBe("Please select the 'Collected From'.");
    }
    expect(requiredMessage(collected)).toBe("Please select the 'Collected From'.");
    expect(required.safeParse({ nm: 'A', frm: ['Employee'] }).data?.frm).toBe('Employee');
  });

  it('refuses a declaration whose multiple select has an option with a comma', () => {
    expect(() =>
      defineEntity({
        name: 'bad',
        table: 'bad',
        key: 'cd',
        scope: 'global',
        label: 'Bad',
        title: 'cd',
        fields: { cd: code(), x: select({ label: 'X', options: ['a,b', 'c'], multiple: true }) },
      }),
    ).toThrow(/may not contain a comma/);
  });
});

describe('select option labels', () => {
  it('labels institute types for display while the stored values stay the options', () => {
    const typ = entity('institute').fields.inst_typ;
    if (typ.kind !== 'select') throw new Error('inst_typ is not a select');
    expect(typ.options).toEqual(['school', 'college']);
    expect(typ.optionLabels).toEqual({ school: 'School', college: 'College' });
    expect(fieldSchema(typ).safeParse('school').data).toBe('school');
    // The label is for reading only: a request must still send the option.
    expect(fieldSchema(typ).safeParse('School').success).toBe(false);
  });

  it('accepts labels for some options only, and none at all', () => {
    expect(select({ label: 'T', options: ['a', 'b'], optionLabels: { a: 'A' } }).optionLabels).toEqual({ a: 'A' });
    expect(select({ label: 'T', options: ['a', 'b'] }).optionLabels).toBeUndefined();
  });

  it('refuses a label for an option that is not declared, at compile time and at run time', () => {
    // @ts-expect-error 'c' is not one of the options
    expect(() => select({ label: 'T', options: ['a', 'b'], optionLabels: { c: 'C' } })).toThrow(/undeclared options c/);
    const loose: string[] = ['a', 'b'];
    expect(() => select({ label: 'T', options: loose, optionLabels: { c: 'C' } })).toThrow(/undeclared options c/);
  });
});

describe('ranges (notBefore dates, notAbove numbers)', () => {
  const holiday = entity('holiday');
  const feeGroup = entity('fee_group');

  it("refuses a create whose to-date falls before its from-date, on the to-date field, in the form's wording", () => {
    const r = bodySchema(holiday, 'create').safeParse({ hly_nm: 'Diwali', hly_frm_dt: '2026-11-10', hly_to_dt: '2026-11-08', hly_typ: 'Festival' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => ({ field: i.path[0], message: i.message }))).toEqual([
      { field: 'hly_to_dt', message: "'To Date' cannot be before 'From Date'." },
    ]);
  });

  it('accepts a one-day range and checks the fee group due date too', () => {
    expect(bodySchema(holiday, 'create').safeParse({ hly_nm: 'Diwali', hly_frm_dt: '2026-11-10', hly_to_dt: '2026-11-10', hly_typ: 'Festival' }).success).toBe(true);
    expect(rangeIssues(feeGroup, { fee_grp_fee_str_dt: '2026-06-01', fee_grp_fee_exp_dt: '2026-05-31' })).toEqual([
      { field: 'fee_grp_fee_exp_dt', message: "'Due Date' cannot be before 'Start Date'." },
    ]);
  });

  it('leaves an update patch to the server (it needs the stored row) and skips empty ends', () => {
    expect(bodySchema(holiday, 'update').safeParse({ hly_to_dt: '2000-01-01' }).success).toBe(true);
    expect(rangeIssues(holiday, { hly_frm_dt: '2026-11-10', hly_to_dt: null })).toEqual([]);
  });

  it('checks only the ranges touching the given fields', () => {
    const broken = { hly_frm_dt: '2026-11-10', hly_to_dt: '2026-11-01' };
    expect(rangeIssues(holiday, broken, new Set(['hly_nm']))).toEqual([]);
    expect(rangeIssues(holiday, broken, new Set(['hly_frm_dt']))).toHaveLength(1);
  });

  it("refuses a pass mark above the maximum mark (notAbove) in the form's wording, and accepts one equal to it", () => {
    const mark = entity('mark');
    const r = bodySchema(mark, 'create').safeParse({ exm_cd: 1, sub_cd: 1, mrk_max_mrk: 50, mrk_min_mrk: 51 });
    expect(r.error?.issues.map((i) => ({ field: i.path[0], message: i.message }))).toEqual([
      { field: 'mrk_min_mrk', message: "'Pass Mark' cannot be more than 'Maximum Mark'." },
    ]);
    expect(bodySchema(mark, 'create').safeParse({ exm_cd: 1, sub_cd: 1, mrk_max_mrk: 50, mrk_min_mrk: 50 }).success).toBe(true);
    // A stored row's numbers may be numeric strings; 100 > 35 numerically though not as text.
    expect(rangeIssues(mark, { mrk_max_mrk: '100', mrk_min_mrk: '35' })).toEqual([]);
    expect(rangeIssues(mark, { mrk_max_mrk: 9, mrk_min_mrk: 10 }, new Set(['mrk_max_mrk']))).toHaveLength(1);
    expect(rangeIssues(mark, { mrk_max_mrk: 9, mrk_min_mrk: 10 }, new Set(['exm_cd']))).toEqual([]);
  });

  it('refuses a notAbove that names no other number field', () => {
    expect(() =>
      defineEntity({ name: 'x', table: 'x', key: 'x_cd', scope: 'global', label: 'X', title: 'x_nm', fields: { x_cd: code(), x_nm: text({ label: 'N' }), x_n: number({ label: 'M', notAbove: 'x_nm' }) } }),
    ).toThrow(/notAbove/);
  });

  it('refuses a notBefore that names no other date field', () => {
    expect(() =>
      defineEntity({ name: 'x', table: 'x', key: 'x_cd', scope: 'global', label: 'X', title: 'x_nm', fields: { x_cd: code(), x_nm: text({ label: 'N' }), x_dt: date({ label: 'D', notBefore: 'x_nm' }) } }),
    ).toThrow(/notBefore/);
  });
});

describe('field buttons (toggles and take-action)', () => {
  const fields = { x_cd: code(), x_nm: text({ label: 'N' }), x_on: bool({ label: 'On' }), x_sts: select({ label: 'Status', options: ['Open', 'Closed'], defaultValue: 'Open' }) };
  const base = { name: 'x', table: 'x', key: 'x_cd', scope: 'global', label: 'X', title: 'x_nm', fields } as const;

  it('lists toggles and actions together, each with its kind', () => {
    const e = defineEntity({ ...base, toggles: [{ button: 'turn', label: 'Turn', field: 'x_on' }], actions: [{ button: 'take_action', label: 'Take Action', field: 'x_sts' }] });
    expect(fieldButtons(e).map((b) => [b.kind, b.button, b.field])).toEqual([
      ['toggle', 'turn', 'x_on'],
      ['action', 'take_action', 'x_sts'],
    ]);
    expect(createdValue(e.fields.x_sts)).toBe('Open');
    expect(createdValue(e.fields.x_on)).toBe(false);
  });

  it('refuses an action on a non-select, a toggle on a non-bool, and two buttons on one field', () => {
    expect(() => defineEntity({ ...base, actions: [{ button: 'a', label: 'A', field: 'x_nm' }] })).toThrow(/single select/);
    expect(() => defineEntity({ ...base, toggles: [{ button: 't', label: 'T', field: 'x_sts' }] })).toThrow(/bool/);
    expect(() =>
      defineEntity({ ...base, actions: [{ button: 'a', label: 'A', field: 'x_sts' }, { button: 'b', label: 'B', field: 'x_sts' }] }),
    ).toThrow(/more than one button/);
  });

  it('wires exam type status to the take action button when exam type is declared', () => {
    const e = entities.find((x) => x.name === 'exam_type');
    if (e) expect(fieldButtons(e).find((b) => b.field === 'exmtyp_sts')?.button).toBe('take_action');
  });
});

describe('workflow buttons', () => {
  const fields = { x_cd: code(), x_nm: text({ label: 'N' }), x_on: bool({ label: 'On' }), x_sts: select({ label: 'Status', options: ['Open', 'Closed'], defaultValue: 'Open' }) };
  const base = { name: 'x', table: 'x', key: 'x_cd', scope: 'global', label: 'X', title: 'x_nm', fields } as const;
  const close = { button: 'close_it', label: 'Close', path: 'close', confirm: 'Close {{title}}?', enabledWhen: { field: 'x_sts', equals: 'Open' } } as const;

  it('keeps a workflow button with its route, reason and condition', () => {
    expect(defineEntity({ ...base, workflowButtons: [{ ...close, reason: { label: 'Reason' } }] }).workflowButtons?.[0]).toMatchObject({ path: 'close', reason: { label: 'Reason' } });
  });

  it('refuses a standard button name, a name used twice or by a toggle, an absolute path and an undeclared field', () => {
    expect(() => defineEntity({ ...base, workflowButtons: [{ ...close, button: 'delete' }] })).toThrow(/repeats another button/);
    expect(() => defineEntity({ ...base, workflowButtons: [close, close] })).toThrow(/repeats another button/);
    expect(() => defineEntity({ ...base, toggles: [{ button: 'close_it', label: 'T', field: 'x_on' }], workflowButtons: [close] })).toThrow(/repeats another button/);
    expect(() => defineEntity({ ...base, workflowButtons: [{ ...close, path: '/api/x/close' }] })).toThrow(/relative path/);
    // @ts-expect-error x_typo is not a field of the declaration
    expect(() => defineEntity({ ...base, workflowButtons: [{ ...close, enabledWhen: { field: 'x_typo', equals: 'Open' } }] })).toThrow(/not a field/);
  });

  it('refuses inputs a dialog cannot ask for, names the button sends itself and partners that are no input', () => {
    const topup = { button: 'topup', label: 'Top Up', path: 'topup', target: 'path', confirm: 'Top up {{title}}.' } as const;
    const amount = money({ label: 'Amount', required: true, max: 1000 });
    expect(defineEntity({ ...base, workflowButtons: [{ ...topup, inputs: { amount }, idempotent: true }] }).workflowButtons?.[0].inputs).toEqual({ amount });
    expect(() => defineEntity({ ...base, workflowButtons: [{ ...topup, inputs: { pic: image({ label: 'Photo' }) } }] })).toThrow(/a image, which a dialog cannot ask for/);
    expect(() => defineEntity({ ...base, workflowButtons: [{ ...topup, inputs: { pw: password({ label: 'Password' }) } }] })).toThrow(/cannot ask for/);
    expect(() => defineEntity({ ...base, workflowButtons: [{ ...topup, inputs: { c: code() } }] })).toThrow(/cannot ask for/);
    expect(() => defineEntity({ ...base, workflowButtons: [{ ...topup, inputs: { amount: money({ label: 'A', readOnly: true }) } }] })).toThrow(/read-only/);
    expect(() => defineEntity({ ...base, workflowButtons: [{ ...topup, inputs: { on: date({ label: 'On', auto: 'updated-at' }) } }] })).toThrow(/read-only/);
    expect(() => defineEntity({ ...base, workflowButtons: [{ ...topup, idempotent: true, inputs: { idempotency_key: text({ label: 'K' }) } }] })).toThrow(/sends itself/);
    expect(() => defineEntity({ ...base, workflowButtons: [{ ...topup, reason: { label: 'Why' }, inputs: { reason: text({ label: 'Why' }) } }] })).toThrow(/sends itself/);
    expect(() => defineEntity({ ...base, workflowButtons: [{ ...topup, target: 'body', inputs: { x_cd: number({ label: 'X' }) } }] })).toThrow(/sends itself/);
    const sec_cd = link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', within: { cls_cd: 'cls_cd' } });
    expect(() => defineEntity({ ...base, workflowButtons: [{ ...topup, inputs: { sec_cd } }] })).toThrow(/within cls_cd, which is not another input/);
    const cls_cd = link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm' });
    expect(defineEntity({ ...base, workflowButtons: [{ ...topup, inputs: { cls_cd, sec_cd } }] }).workflowButtons).toHaveLength(1);
  });

  it('refuses a condition no row can meet: an empty list, or a status the select does not hold', () => {
    expect(defineEntity({ ...base, workflowButtons: [{ ...close, enabledWhen: { field: 'x_sts', equals: ['Open', 'Closed'] } }] }).workflowButtons).toHaveLength(1);
    expect(() => defineEntity({ ...base, workflowButtons: [{ ...close, enabledWhen: { field: 'x_sts', equals: [] } }] })).toThrow(/enabled for no value/);
    expect(() => defineEntity({ ...base, workflowButtons: [{ ...close, enabledWhen: { field: 'x_sts', equals: 'Shut' } }] })).toThrow(/Shut, which x_sts cannot hold/);
  });

  it('checks at registry load that a button opens a registered entity with a get route', () => {
    const admit = { button: 'admit', label: 'Admit', path: 'admit', confirm: 'Admit?', opens: 'student' } as const;
    expect(workflowOpensIssues([defineEntity({ ...base, workflowButtons: [admit] }), entity('student')])).toEqual([]);
    expect(workflowOpensIssues([defineEntity({ ...base, workflowButtons: [{ ...admit, opens: 'studnet' }] })])).toEqual([
      "x: workflow button admit opens 'studnet', which is not a registered entity",
    ]);
    const listOnly = defineEntity({ ...base, name: 'y', routes: ['list'] });
    expect(workflowOpensIssues([defineEntity({ ...base, workflowButtons: [{ ...admit, opens: 'y' }] }), listOnly])).toEqual(['x: workflow button admit opens y, which has no get route']);
    expect(entity('student_admission').workflowButtons?.[0].opens).toBe('student');
  });

  it("checks a dialog's body once for browser and server: required in the spec's words, field rules, key, reason", () => {
    const topup = entity('wallet').workflowButtons?.find((b) => b.button === 'topup');
    if (!topup) throw new Error('wallet has no topup');
    const s = workflowInputSchema(topup);
    const key = '2f1c4b7e-5d0a-4c3e-9f61-0a1b2c3d4e5f';
    expect(s.parse({ amount: '100.5', reason: '  pocket money ', idempotency_key: key })).toEqual({ amount: '100.5', reason: 'pocket money', idempotency_key: key });
    const messages = (body: unknown) => s.safeParse(body).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(messages({ amount: '', reason: ' ', idempotency_key: key })).toEqual(["amount: Please fill the 'Amount'.", "reason: Please enter the 'Reason'."]);
    expect(messages({ amount: '12.345', reason: 'x', idempotency_key: key })).toEqual(["amount: 'Amount' must be an amount with at most 2 decimals."]);
    expect(messages({ amount: '2000000', reason: 'x', idempotency_key: key })).toEqual(["amount: 'Amount' is too large."]);
    expect(messages({ amount: '1', reason: 'x' })).toEqual(['idempotency_key: The request key is missing. Reload the page and try again.']);
    expect(s.safeParse({ amount: '1', reason: 'x', idempotency_key: key, wlt_amt: '5' }).success).toBe(false);

    const admit = entity('student_admission').workflowButtons?.[0];
    if (!admit) throw new Error('no admit');
    const a = workflowInputSchema(admit).extend({ stud_admn_cd: z.number() });
    expect(a.parse({ stud_admn_cd: 3, cls_cd: '4', sec_cd: 9, idempotency_key: key })).toEqual({ stud_admn_cd: 3, cls_cd: 4, sec_cd: 9, stud_doj: null, idempotency_key: key });
    expect(a.safeParse({ stud_admn_cd: 3, cls_cd: 4, idempotency_key: key }).error?.issues[0].message).toBe("Please select the 'Section'.");

    const take = entity('online_payment_request').workflowButtons?.[0];
    if (!take) throw new Error('no take_action');
    expect(workflowInputSchema(take).safeParse({ oln_pay_acpt_sts: 'Pending', idempotency_key: key }).error?.issues[0].message).toBe("'Status' must be one of Accepted, Rejected.");
    expect(workflowInputSchema({ ...close, reason: { label: 'Why' } }).safeParse({ reason: '' }).error?.issues[0].message).toBe("Please enter the 'Why'.");
    expect(workflowInputSchema(close).parse({})).toEqual({});
  });

  it('gives the fee collected grid cancel and undo for active and cancelled bills', () => {
    expect(entity('collected_fee').workflowButtons?.map((b) => [b.button, b.path, b.enabledWhen?.equals, !!b.reason])).toEqual([
      ['cancel_bill', 'cancel', 'Active', true],
      ['undo_cancel', 'undo-cancel', 'Cancelled', false],
    ]);
  });
});

describe('related lists', () => {
  it("checks at registry load that a related list is a registered entity's link to the declaring one", () => {
    const wallet = entity('wallet');
    expect(wallet.related).toEqual([{ label: 'Statement', entity: 'wallet_transaction', field: 'wlt_cd' }]);
    expect(relatedIssues(entities)).toEqual([]);
    expect(relatedIssues([{ ...wallet, related: [{ label: 'S', entity: 'wallet_txn', field: 'wlt_cd' }] }])).toEqual(["wallet: related list 'wallet_txn' is not a registered entity with a list"]);
    expect(relatedIssues([{ ...wallet, related: [{ label: 'S', entity: 'wallet_transaction', field: 'stud_cd' }] }, entity('wallet_transaction')])).toEqual([
      'wallet: related list wallet_transaction.stud_cd is not a link to wallet',
    ]);
  });
});

describe('document buttons', () => {
  const fields = { x_cd: code(), x_nm: text({ label: 'N' }) };
  const base = { name: 'x', table: 'x', key: 'x_cd', scope: 'global', label: 'X', title: 'x_nm', fields } as const;
  const print = { button: 'print', label: 'Print', path: 'pdf' } as const;

  it('refuses a standard or repeated button name, an absolute path and a row without the get route', () => {
    expect(defineEntity({ ...base, documents: [print] }).documents).toEqual([print]);
    expect(() => defineEntity({ ...base, documents: [{ ...print, button: 'view' }] })).toThrow(/repeats another button/);
    expect(() => defineEntity({ ...base, documents: [print, print] })).toThrow(/repeats another button/);
    expect(() => defineEntity({ ...base, documents: [{ ...print, path: '/api/x/pdf' }] })).toThrow(/relative path/);
    expect(() => defineEntity({ ...base, routes: ['list'], documents: [print] })).toThrow(/needs the get route/);
  });

  it("gives the certificate page a 'print' button for the selected certificate's PDF, which the page grants", () => {
    expect(entity('certificate').documents).toEqual([{ button: 'print', label: 'Print', path: 'pdf' }]);
    expect(findPage('student', 'certificate')?.buttons).toContain('print');
  });
});

describe('inline edit', () => {
  const fields = {
    x_cd: code(),
    x_nm: text({ label: 'N' }),
    x_amt: money({ label: 'Amount' }),
    x_qty: number({ label: 'Qty' }),
    x_fix: money({ label: 'Fixed', immutable: true }),
  };
  const base = { name: 'x', table: 'x', key: 'x_cd', scope: 'global', label: 'X', title: 'x_nm', fields } as const;

  it('takes money and number fields', () => {
    expect(defineEntity({ ...base, inlineEdit: ['x_amt', 'x_qty'] }).inlineEdit).toEqual(['x_amt', 'x_qty']);
  });

  it('refuses other kinds, fields fixed after create and entities without the update route', () => {
    expect(() => defineEntity({ ...base, inlineEdit: ['x_nm'] })).toThrow(/money or number/);
    expect(() => defineEntity({ ...base, inlineEdit: ['x_cd'] })).toThrow(/money or number/);
    expect(() => defineEntity({ ...base, inlineEdit: ['x_fix'] })).toThrow(/not editable after create/);
    expect(() => defineEntity({ ...base, inlineEdit: ['x_amt'], routes: ['list', 'get'] })).toThrow(/update route/);
  });

  it('cannot name an undeclared field (compile time, and at run time for untyped lists)', () => {
    // @ts-expect-error x_typo is not a field of the declaration
    expect(() => defineEntity({ ...base, inlineEdit: ['x_typo'] })).toThrow(/money or number/);
  });
});

import { describe, expect, it } from 'vitest';
import { A4, A5, firstPageInk, pdfInfo, pdfLetters, pdfText } from '../../test/pdf-check';
import { letterhead, pageSizeOf, printDate, printMoney, printLabels, printLanguageOf, printTime, renderPdf, tamilRuns, type Institute } from './pdf-render';

const school: Institute = {
  inst_cd: 1,
  inst_nm: 'Green Valley Higher Secondary School',
  inst_typ: 'school',
  inst_adr1: '12, Gandhi Road',
  inst_adr2: 'Erode 638001',
  inst_ph: '+91 424 222 3344',
  inst_eml: 'office@greenvalley.example',
};

async function sample(lang: 'english' | 'tamil', size: 'A4' | 'A5', cancelled = false): Promise<Buffer> {
  const t = printLabels(lang, school.inst_typ);
  return renderPdf({
    size,
    title: t('receipt.title'),
    author: school.inst_nm,
    t,
    cancelled,
    footer: t('printed_by', { date: printDate('2026-11-23', lang), time: printTime('15:40:00'), user: 'ADMIN' }),
    content: [letterhead(school, t('receipt.title'), t, size), { text: `${t('receipt.father')}: Murugan K` }, `${t('receipt.balance')}: 1250.00`],
  });
}

describe('pdf-render', () => {
  it('prints the letterhead and text in English on A4, with embedded fonts and a non-blank page', async () => {
    const pdf = await sample('english', 'A4');
    const text = pdfText(pdf);
    expect(text).toContain('Green Valley Higher Secondary School');
    expect(text).toContain('12, Gandhi Road, Erode 638001');
    expect(text).toContain('Phone: +91 424 222 3344');
    expect(text).toContain('Fee Receipt');
    expect(text).toContain("Father's Name: Murugan K");
    expect(text).toContain('Printed on 2026/Nov/23 03:40:00 PM by ADMIN');
    expect(text).toContain('Page 1 of 1');
    expect(text).not.toContain('CANCELLED');
    expect(pdfInfo(pdf)).toMatchObject({ ...A4, pages: 1, title: 'Fee Receipt' });
    expect(firstPageInk(pdf)).toBeGreaterThan(0.002);
  });

  it('prints A5 when asked', async () => {
    expect(pdfInfo(await sample('english', 'A5'))).toMatchObject(A5);
  });

  it("writes 'CANCELLED' across a cancelled document", async () => {
    expect(pdfLetters(await sample('english', 'A5', true))).toContain('CANCELLED');
    expect(pdfLetters(await sample('english', 'A5', false))).not.toContain('CANCELLED');
  });

  it('prints Tamil labels that read back as Tamil text, Latin and digits beside them', async () => {
    const pdf = await sample('tamil', 'A5');
    const text = pdfText(pdf);
    expect(text).toContain('கட்டண ரசீது');
    expect(text).toContain('தந்தையின் பெயர்: Murugan K');
    expect(text).toContain('நிலுவைத் தொகை: 1250.00');
    expect(text).toContain('தொலைபேசி: +91 424 222 3344');
    expect(text).toContain('2026/நவ./23');
    expect(firstPageInk(pdf)).toBeGreaterThan(0.002);
  });

  it('splits text into Tamil and other runs', () => {
    expect(tamilRuns('Fee: கட்டணம் 100')).toEqual([{ text: 'Fee: ' }, { text: 'கட்டணம்', font: 'NotoSansTamil' }, { text: ' 100' }]);
    expect(tamilRuns('plain')).toEqual([{ text: 'plain' }]);
  });

  it('uses the college wording for a college and falls back to English', () => {
    expect(printLabels('english', 'college')('receipt.class_section')).toBe('Course - Section');
    expect(printLabels('english', 'school')('receipt.class_section')).toBe('Class - Section');
    expect(() => printLabels('tamil', 'school')('no.such.key')).toThrow(/missing/);
  });

  it('writes money as the screen does: 2 decimals, Indian grouping', () => {
    expect(['0', '5', '475.5', '4475.50', '12859', '100000.5', '12345678.9', '-1250'].map(printMoney)).toEqual([
      '0.00',
      '5.00',
      '475.50',
      '4,475.50',
      '12,859.00',
      '1,00,000.50',
      '1,23,45,678.90',
      '-1,250.00',
    ]);
  });

  it('refuses unknown sizes and languages', () => {
    expect(pageSizeOf(undefined, 'A5')).toBe('A5');
    expect(pageSizeOf('a4', 'A5')).toBe('A4');
    expect(() => pageSizeOf('Letter', 'A4')).toThrow(/A4/);
    expect(printLanguageOf(undefined)).toBe('english');
    expect(() => printLanguageOf('klingon')).toThrow(/language/);
  });
});

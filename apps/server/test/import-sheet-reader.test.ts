import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { TOO_MANY_ROWS } from '../src/engine/import.service';
import { CsvReader, parseCsv, readSheetStream } from '../src/engine/sheet-reader';

/**
 * The upload is read as it arrives (issue 10): CSV text cut at any point gives the same rows as the whole
 * text, an .xlsx goes through ExcelJS's streaming reader, and a file past the row limit is refused at the row
 * past it, without the rest being read.
 */

/** Rows of the text fed in the given pieces. */
function inPieces(text: string, cuts: number[]): string[][] {
  const r = new CsvReader();
  const out: string[][] = [];
  let at = 0;
  for (const c of [...new Set(cuts)].sort((a, b) => a - b)) {
    out.push(...r.push(text.slice(at, c)));
    at = c;
  }
  out.push(...r.push(text.slice(at)), ...r.end());
  return out;
}

const limits = { maxRows: 50_000, tooManyRows: TOO_MANY_ROWS };

async function* bytes(...pieces: (string | Buffer)[]): AsyncGenerator<Buffer> {
  for (const p of pieces) yield Buffer.from(p);
}

describe('CSV read in pieces', () => {
  it('reads quoted fields, doubled quotes, CRLF, a lone CR and a byte-order mark as the whole-text reader did', () => {
    const text = '\uFEFFname,note\r\n"Ravi, K","said ""hi"""\r\n\r\nMeena,"two\nlines"\rLast,row';
    expect(parseCsv(text)).toEqual([
      ['name', 'note'],
      ['Ravi, K', 'said "hi"'],
      ['Meena', 'two\nlines'],
      ['Last', 'row'],
    ]);
  });

  it('gives the same rows wherever the text is cut: between CR and LF, between two doubled quotes, inside a quoted field', () => {
    const text = 'a,b\r\n"x ""y""\r\nz",w\r\n';
    const whole = parseCsv(text);
    expect(whole).toEqual([
      ['a', 'b'],
      ['x "y"\r\nz', 'w'],
    ]);
    for (let i = 0; i <= text.length; i++) expect(inPieces(text, [i]), `cut at ${i}`).toEqual(whole);
  });

  it('gives the same rows as the whole text for any CSV cut at random points (property)', () => {
    const cell = fc.oneof(fc.string({ unit: fc.constantFrom('a', 'b', ' ', ',', '"', '\r', '\n', 'é') }), fc.constant(''));
    const line = fc.array(cell, { minLength: 1, maxLength: 4 });
    const quote = (c: string): string => (/[",\r\n]/.test(c) || c === '' ? `"${c.replace(/"/g, '""')}"` : c);
    const csv = fc.tuple(fc.array(line, { minLength: 1, maxLength: 6 }), fc.constantFrom('\n', '\r\n', '\r')).map(([rows, eol]) => rows.map((r) => r.map(quote).join(',')).join(eol));
    fc.assert(
      fc.property(
        csv.chain((text) => fc.tuple(fc.constant(text), fc.array(fc.nat({ max: text.length }), { maxLength: 8 }))),
        ([text, cuts]) => {
          expect(inPieces(text, cuts)).toEqual(parseCsv(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('joins a UTF-8 character split between two pieces of the upload', async () => {
    const text = Buffer.from('name\nSéverine\n');
    const cut = text.indexOf(0xa9); // the second byte of 'é'
    const read = await readSheetStream('x.csv', bytes(text.subarray(0, cut), text.subarray(cut)), limits);
    expect(read.rows).toEqual([['name'], ['Séverine']]);
    expect(read.bytes).toBe(text.length);
  });
});

describe('reading an upload as it arrives', () => {
  it(`refuses the ${(50_001).toLocaleString('en')}st row as soon as it is read, without reading further`, async () => {
    let piecesRead = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      yield Buffer.from('Student Name,Admission No\n');
      for (let i = 1; ; i++) {
        piecesRead++;
        // A file that would go on for ever: the reader must stop by itself.
        yield Buffer.from(`Pupil ${i},ADM/${i}\n`);
      }
    }
    await expect(readSheetStream('roll.csv', endless(), limits)).rejects.toThrow(TOO_MANY_ROWS);
    expect(piecesRead).toBe(50_001);
  });

  it('reads the first sheet of an .xlsx through the streaming reader: shared strings, numbers, dates, blank rows left out, the help sheet ignored', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Students');
    ws.addRow(['Student Name', 'Admission No', 'Date of Birth', 'Order']);
    ws.addRow(['Arun', 'A/1', new Date(Date.UTC(2015, 5, 9)), 3]);
    ws.addRow([]);
    ws.addRow(['Priya', { richText: [{ text: 'A/' }, { text: '2' }] }, null, { formula: '1+1', result: 2 }]);
    wb.addWorksheet('Help').addRow(['Column', 'What to enter']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const read = await readSheetStream('students.xlsx', bytes(buf.subarray(0, 3), buf.subarray(3, 1000), buf.subarray(1000)), limits);
    expect(read.rows).toEqual([
      ['Student Name', 'Admission No', 'Date of Birth', 'Order'],
      ['Arun', 'A/1', '2015-06-09', '3'],
      ['Priya', 'A/2', '', '2'],
    ]);
    expect(read.bytes).toBe(buf.length);
    const { createHash } = await import('node:crypto');
    expect(read.sha256).toBe(createHash('sha256').update(buf).digest('hex'));
  });

  it('reads a good workbook whole when the streaming pass loses its workbook part by chance (exceljs 3064), with the same rows', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Students');
    ws.addRow(['Student Name', 'Admission No', 'Date of Birth', 'Order']);
    ws.addRow(['Arun', 'A/1', new Date(Date.UTC(2015, 5, 9)), 3]);
    ws.addRow([]);
    ws.addRow(['Priya', { richText: [{ text: 'A/' }, { text: '2' }] }, null, { formula: '1+1', result: 2 }]);
    wb.addWorksheet('Help').addRow(['Column', 'What to enter']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    // The race drops the last stored entry, xl/workbook.xml: the streaming reader then never learns the sheets.
    const proto = ExcelJS.stream.xlsx.WorkbookReader.prototype as unknown as { _parseWorkbook: (entry: unknown) => Promise<void> };
    const lost = vi.spyOn(proto, '_parseWorkbook').mockImplementation(async () => undefined);
    try {
      const read = await readSheetStream('students.xlsx', bytes(buf.subarray(0, 700), buf.subarray(700)), limits);
      expect(lost).toHaveBeenCalled();
      expect(read.rows).toEqual([
        ['Student Name', 'Admission No', 'Date of Birth', 'Order'],
        ['Arun', 'A/1', '2015-06-09', '3'],
        ['Priya', 'A/2', '', '2'],
      ]);
      expect(read.bytes).toBe(buf.length);
      // A file that is no workbook still is refused after the second reading.
      await expect(readSheetStream('x.xlsx', bytes(buf.subarray(0, Math.floor(buf.length / 2))), limits)).rejects.toThrow('The file is not a valid .xlsx workbook.');
    } finally {
      lost.mockRestore();
    }
  });

  it('refuses an .xlsx that is not a zip, one cut short, and a name of another kind, with the same sentences as before', async () => {
    await expect(readSheetStream('x.xlsx', bytes('name\nArun\n'), limits)).rejects.toThrow('The file is not a valid .xlsx workbook.');
    await expect(readSheetStream('x.xlsx', bytes('PK'), limits)).rejects.toThrow('The file is not a valid .xlsx workbook.');
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('S').addRow(['Student Name']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    await expect(readSheetStream('x.xlsx', bytes(buf.subarray(0, Math.floor(buf.length / 2))), limits)).rejects.toThrow('The file is not a valid .xlsx workbook.');
    await expect(readSheetStream('x.pdf', bytes('%PDF'), limits)).rejects.toThrow('Only .xlsx and .csv files can be imported.');
  });

  it('passes on a failure of the upload itself (a file past the size limit) instead of reporting a broken workbook', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('S').addRow(['Student Name']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    async function* cutOff(): AsyncGenerator<Buffer> {
      yield buf.subarray(0, 100);
      throw new Error('the upload was cut off');
    }
    await expect(readSheetStream('x.xlsx', cutOff(), limits)).rejects.toThrow('the upload was cut off');
  });
});

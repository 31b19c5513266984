/**
 * The sheet-reading step of the import alone, in this process: the streaming reader the import uses
 * (apps/server/src/engine/sheet-reader.ts) against loading the whole workbook (ExcelJS's Workbook.xlsx.load,
 * the reader before issue 10's streaming), alternating, on one .xlsx of N students like bench:import's.
 * Prints each run's seconds and the peak heap it added
 * (run with node --expose-gc so each run starts from a collected heap).
 *
 *   node --expose-gc --import tsx bench/import/read-sheet.bench.ts --rows 50000 --runs 3
 */
import ExcelJS from 'exceljs';
import { parseArgs } from 'node:util';
import { readSheetStream } from '../../apps/server/src/engine/sheet-reader';
import { loadAverage } from '../lib/stats';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '50000' }, runs: { type: 'string', default: '3' } } });
const n = Number(args.rows);

const wb = new ExcelJS.Workbook();
const ws = wb.addWorksheet('Student');
ws.addRow(['Student Name', 'Admission No', 'Class', 'Section', 'Gender', "Father's Name", 'Phone', 'Medium']);
for (let i = 1; i <= n; i++) ws.addRow([`Pupil ${i}`, `ADM/${String(i).padStart(6, '0')}`, 'VI', 'A', i % 2 ? 'Male' : 'Female', `Parent ${i}`, `+91 98${i}`, 'English']);
const file = Buffer.from(await wb.xlsx.writeBuffer());

async function whole(): Promise<number> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  const width = sheet.columnCount;
  const out: string[][] = [];
  sheet.eachRow({ includeEmpty: false }, (r) => {
    const cells: string[] = [];
    for (let c = 1; c <= width; c++) cells.push(String(r.getCell(c).value ?? '').trim());
    out.push(cells);
  });
  return out.length;
}

async function streamed(): Promise<number> {
  // The upload arrives in pieces of 64 KB, as the multipart reader hands them on.
  async function* pieces(): AsyncGenerator<Buffer> {
    for (let at = 0; at < file.length; at += 65_536) yield file.subarray(at, at + 65_536);
  }
  const read = await readSheetStream('students.xlsx', pieces(), { maxRows: 1_000_000, tooManyRows: 'too many' });
  return read.rows.length;
}

console.log(`read-sheet  ${n} rows, ${Math.round(file.length / 1024)} KB .xlsx  load ${await loadAverage()}`);
for (let run = 1; run <= Number(args.runs); run++) {
  for (const [name, fn] of [
    ['whole workbook (before)', whole],
    ['streamed (after)', streamed],
  ] as const) {
    global.gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    let peakHeap = heap0;
    const sample = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 20);
    const t0 = performance.now();
    const rows = await fn();
    const s = (performance.now() - t0) / 1000;
    clearInterval(sample);
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    console.log(
      `  run ${run}  ${name.padEnd(24)} ${s.toFixed(2)} s  rows ${rows}  peak heap +${Math.round((peakHeap - heap0) / 1048576)} MB`,
    );
  }
}

import type { Workbook } from 'exceljs';

type ExcelModule = typeof import('exceljs');

/**
 * ExcelJS is ~1 MB: it is fetched only when a user exports or downloads a template. The browser build is a
 * CommonJS bundle, so depending on the bundler the classes sit on the module or on its default export.
 */
export async function newWorkbook(): Promise<Workbook> {
  const mod = (await import('exceljs')) as ExcelModule & { default?: ExcelModule };
  const excel = mod.Workbook ? mod : mod.default;
  if (!excel?.Workbook) throw new Error('The Excel library did not load.');
  const wb = new excel.Workbook();
  wb.creator = 'Campus';
  wb.created = new Date();
  return wb;
}

/** Saves a workbook through a temporary link: the only way to name a downloaded file. */
export async function downloadWorkbook(wb: Workbook, fileName: string): Promise<void> {
  const data = await wb.xlsx.writeBuffer();
  const blob = new Blob([data], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoking at once can cancel the download in some browsers; a minute is plenty to hand it over.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

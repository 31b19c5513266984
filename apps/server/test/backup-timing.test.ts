import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backupDirRefusal } from '../src/workflows/backup/backup-path';
import { backupFileStem, backupTiming } from '../src/workflows/backup/backup-timing';

describe("a backup row's Run At", () => {
  it('turns each frequency into its cron, with 02:00 when no time is given', () => {
    expect(backupTiming('Daily', '02:00')).toEqual({ cron: '0 2 * * *' });
    expect(backupTiming('Daily', '')).toEqual({ cron: '0 2 * * *' });
    expect(backupTiming('Daily', '9:05')).toEqual({ cron: '5 9 * * *' });
    expect(backupTiming('Weekly', 'Sunday')).toEqual({ cron: '0 2 * * 0' });
    expect(backupTiming('Weekly', 'fri  18:30')).toEqual({ cron: '30 18 * * 5' });
    expect(backupTiming('Monthly', '1')).toEqual({ cron: '0 2 1 * *' });
    expect(backupTiming('Monthly', '30 23:59')).toEqual({ cron: '59 23 30 * *' });
  });

  it('refuses what does not fit the frequency, saying what would', () => {
    expect(backupTiming('Daily', '2 am')).toEqual({ refusal: "'Run At' of a daily backup is a time like 02:00 (24-hour clock), not '2 am'." });
    expect(backupTiming('Weekly', 'Funday')).toEqual({
      refusal: "'Run At' of a weekly backup is a weekday like Sunday (optionally with a time: Sunday 02:00), not 'Funday'.",
    });
    expect(backupTiming('Weekly', 'Su')).toHaveProperty('refusal');
    expect(backupTiming('Monthly', '0')).toHaveProperty('refusal');
    expect(backupTiming('Monthly', '1 25:00')).toHaveProperty('refusal');
    expect(backupTiming('Yearly', '1')).toEqual({ refusal: "The frequency 'Yearly' is not one of Daily, Weekly, Monthly." });
  });

  it('names the file from its pattern, safely', () => {
    const at = new Date(2026, 10, 5, 7, 3, 9);
    expect(backupFileStem('campus_YYYYMMDD', at)).toBe('campus_20261105');
    expect(backupFileStem('campus_month_YYYYMM', at)).toBe('campus_month_202611');
    expect(backupFileStem('x_HHmmss', at)).toBe('x_070309');
    expect(backupFileStem('', at)).toBe('campus_20261105_0703');
    expect(backupFileStem('../../etc/x_YYYY', at)).toBe('_.._etc_x_2026');
  });
});

describe('a backup folder stays inside BACKUP_ROOT', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'campus-backup-path-'));
  const root = join(scratch, 'root');
  mkdirSync(join(root, 'daily'), { recursive: true });
  symlinkSync(tmpdir(), join(root, 'out'));
  symlinkSync(join(root, 'daily'), join(root, 'also-daily'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('takes folders under the root, relative or absolute, existing or not, and links that stay inside', () => {
    for (const p of ['daily', 'backups/daily', join(root, 'weekly'), 'also-daily/sub', '.']) expect(backupDirRefusal(p, root), p).toBeNull();
  });

  it('refuses escapes, other absolute paths and links out of the root', () => {
    for (const p of ['..', '../x', 'a/../../x', '/etc', scratch, 'out', 'out/deeper']) {
      expect(backupDirRefusal(p, root), p).toContain('is outside the backup folder');
    }
    expect(backupDirRefusal('  ', root)).toBe('Give the backup path: a folder inside the backup folder.');
  });
});

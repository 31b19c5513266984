import type { AnyEntity } from '@campus/entities/define';
import type { PageDef } from '@campus/entities/pages';
import { Alert, Button, FileInput, Group, Paper, Progress, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
// Only this page draws a progress bar: its styles come with it rather than with every signed-in screen.
import '@mantine/core/styles/Progress.layer.css';
import { IconAlertTriangle, IconArrowLeft, IconCheck, IconDownload, IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HttpError, http, type ProgressLine } from '../lib/http-client';
import { localeOf } from '../lib/i18n';
import { toast } from '../lib/toast';
import { yesNoWords } from './cell-format';
import { entityUrl } from './entity-api';
import { entityLabel, fieldLabel, type Translate } from './entity-labels';
import { modePath } from './entity-mode';
import { ACCEPTED_IMPORT, isImportFile, templateColumns } from './import-template';
import { countText } from './list-messages';
import { lastListSearch, listQueryKey } from './use-entity-list';

interface ImportError {
  row: number;
  field: string;
  message: string;
}

interface ImportResult {
  ok: boolean;
  total: number;
  errors: ImportError[];
  /** Rows written (0 on a dry run). */
  imported?: number;
}

/** Where a check or commit is: the bytes sent, then the server's phases (read, check, write). */
interface Step {
  phase: 'upload' | 'read' | 'check' | 'write';
  done: number;
  total?: number;
}

/** The bar's fill and its sentence for a step; reading has no total yet, so its bar moves without a value. */
function stepView(t: Translate, step: Step, locale: string): { value: number; text: string; moving: boolean } {
  const n = step.done.toLocaleString(locale);
  const total = (step.total ?? 0).toLocaleString(locale);
  const share = step.total ? Math.min(100, Math.round((step.done / step.total) * 100)) : 0;
  switch (step.phase) {
    case 'upload':
      return { value: share, text: t('import.uploading', { defaultValue: 'Uploading {{percent}}%', percent: share }), moving: false };
    case 'read':
      return { value: 100, text: t('import.reading', { defaultValue: 'Reading rows {{n}}', n }), moving: true };
    case 'check':
      return { value: share, text: t('import.checking', { defaultValue: 'Checking {{n}} of {{total}}', n, total }), moving: false };
    case 'write':
      return { value: share, text: t('import.saving', { defaultValue: 'Saving {{n}} of {{total}}', n, total }), moving: false };
  }
}

const isPhase = (p: string): p is Step['phase'] => p === 'read' || p === 'check' || p === 'write';

/** Long error lists are shown in part: the first screenful says enough to fix a systematic problem. */
const SHOWN_ERRORS = 200;

export interface ImportPageProps {
  entity: AnyEntity;
  page: PageDef;
}

async function downloadTemplate(entity: AnyEntity, t: Translate): Promise<void> {
  const { newWorkbook, downloadWorkbook } = await import('./excel-loader');
  const cols = templateColumns(entity);
  const wb = await newWorkbook();
  // The data sheet, its header row (field names) and the file name stay as declared: the header is what the
  // import reads back, whatever language the template was downloaded in. Only the help sheet is translated.
  const data = wb.addWorksheet(entity.label.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  data.columns = cols.map((c) => ({ header: c.name, key: c.name, width: Math.max(14, c.name.length + 4) }));
  data.getRow(1).font = { bold: true };
  // The help sits on a second sheet so the first one imports as it is.
  const help = wb.addWorksheet(t('import.help_sheet', { defaultValue: 'Help' }).slice(0, 31));
  help.columns = [
    { header: t('import.help_column', { defaultValue: 'Column' }), width: 24 },
    { header: t('import.help_label', { defaultValue: 'Label' }), width: 28 },
    { header: t('import.help_required', { defaultValue: 'Required' }), width: 12 },
    { header: t('import.help_hint', { defaultValue: 'What to enter' }), width: 60 },
  ];
  help.getRow(1).font = { bold: true };
  const { yes, no } = yesNoWords(t);
  help.addRows(cols.map((c) => [c.name, fieldLabel(t, entity, c.name), c.required ? yes : no, c.hint]));
  await downloadWorkbook(wb, `${entity.label}_import_template.xlsx`);
}

/**
 * Two-step import: a dry run lists every problem row by row without writing anything, then Commit sends
 * the same file for real (the server inserts all rows or none).
 */
export function ImportPage({ entity, page }: ImportPageProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t, i18n } = useTranslation();
  const tableName = entityLabel(t, entity);
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState<'check' | 'commit' | 'template' | null>(null);
  const [step, setStep] = useState<Step | null>(null);
  const locale = localeOf(i18n.language);
  /** A count as the user reads numbers: '50,000 rows ready'. */
  const count = (n: number): string => n.toLocaleString(locale);

  const backToTable = () => navigate(`${modePath(page.module, page.page, 'table')}${lastListSearch(entity.name)}`);

  const choose = (f: File | null) => {
    setResult(null);
    if (f && !isImportFile(f.name)) {
      toast.warning(t('import.wrong_file', { defaultValue: 'Please choose an .xlsx or .csv file.' }));
      setFile(null);
      return;
    }
    setFile(f);
  };

  const send = async (dryRun: boolean): Promise<ImportResult | null> => {
    if (!file) return null;
    const fd = new FormData();
    fd.append('file', file);
    setStep({ phase: 'upload', done: 0, total: file.size });
    try {
      return await http.uploadWithProgress<ImportResult>(entityUrl(entity, 'import'), fd, {
        query: dryRun ? { dryRun: 1 } : undefined,
        // The client's generic 'Created Successfully' would be wrong for a check and vague for a commit.
        headers: { dontShowMsg: '1' },
        // Once the server has said where it is, the bytes sent no longer matter (it reads as they arrive).
        onUpload: (sent, total) => setStep((s) => (s === null || s.phase === 'upload' ? { phase: 'upload', done: sent, total: total || file.size } : s)),
        onProgress: (line: ProgressLine) => {
          if (isPhase(line.phase)) setStep({ phase: line.phase, done: line.done, total: line.total });
        },
      });
    } finally {
      setStep(null);
    }
  };

  const check = async () => {
    setBusy('check');
    try {
      setResult(await send(true));
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
    } finally {
      setBusy(null);
    }
  };

  const commit = async () => {
    setBusy('commit');
    try {
      const res = await send(false);
      // The server checks again on commit (rows may have changed since the check) and then writes nothing.
      if (res && !res.ok) {
        setResult(res);
        return;
      }
      const n = res?.imported ?? res?.total ?? result?.total ?? 0;
      await queryClient.invalidateQueries({ queryKey: listQueryKey(entity.name) });
      toast.success(
        countText(t, 'import.imported', n, { single: 'Imported {{n}} {{table}} record.', many: 'Imported {{n}} {{table}} records.' }, { table: tableName, n: count(n) }),
      );
      backToTable();
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      // The commit found problems the check could not (e.g. a value taken meanwhile): check again.
      setResult(null);
    } finally {
      setBusy(null);
    }
  };

  const template = async () => {
    setBusy('template');
    try {
      await downloadTemplate(entity, t);
    } finally {
      setBusy(null);
    }
  };

  const errors = result?.errors ?? [];
  const ready = result !== null && result.ok && errors.length === 0;

  return (
    <Stack gap="sm" maw={960} data-testid="import-page">
      <Title order={4}>{t('import.title', { defaultValue: 'Import {{table}}', table: tableName })}</Title>
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('import.intro', {
              defaultValue:
                'Upload an Excel (.xlsx) or CSV file whose first row holds the column names of the template. The file is checked first; nothing is saved until you commit, and then either every row is saved or none.',
            })}
          </Text>
          <Group align="flex-end" gap="xs" wrap="wrap">
            <FileInput
              id="import-file"
              label={t('import.file', { defaultValue: 'File' })}
              placeholder={t('import.choose', { defaultValue: 'Choose .xlsx or .csv' })}
              accept={ACCEPTED_IMPORT.join(',')}
              value={file}
              onChange={choose}
              clearable
              leftSection={<IconFileSpreadsheet size={16} />}
              w={{ base: '100%', sm: 320 }}
            />
            <Button leftSection={<IconUpload size={16} />} onClick={() => void check()} disabled={!file} loading={busy === 'check'} data-testid="btn-check">
              {t('import.check', { defaultValue: 'Check file' })}
            </Button>
            <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => void template()} loading={busy === 'template'}>
              {t('import.template', { defaultValue: 'Download template' })}
            </Button>
          </Group>
        </Stack>
      </Paper>

      {step !== null && <ImportProgress t={t} step={step} locale={locale} />}

      {ready && (
        <Alert color="teal" icon={<IconCheck size={18} />} title={countText(t, 'import.ready', result.total, { single: '{{n}} row ready', many: '{{n}} rows ready' }, { n: count(result.total) })} data-testid="import-ready">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">{t('import.no_problems', { defaultValue: 'No problems found. Commit to save them.' })}</Text>
            <Button color="teal" onClick={() => void commit()} loading={busy === 'commit'} data-testid="btn-commit">
              {t('import.commit', { defaultValue: 'Commit' })}
            </Button>
          </Group>
        </Alert>
      )}

      {result !== null && !ready && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title={countText(
            t,
            'import.problems',
            errors.length,
            { single: '{{n}} problem in {{total}} rows', many: '{{n}} problems in {{total}} rows' },
            { total: count(result.total) },
          )} data-testid="import-errors">
          <Text size="sm" mb="xs">
            {t('import.nothing_imported', { defaultValue: 'Nothing was imported. Fix these rows in the file and check it again.' })}
          </Text>
          <ScrollArea.Autosize mah={360}>
            <Table striped withTableBorder fz="sm" bg="var(--mantine-color-body)">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={56}>{t('import.row', { defaultValue: 'Row' })}</Table.Th>
                  <Table.Th>{t('import.column', { defaultValue: 'Column' })}</Table.Th>
                  <Table.Th>{t('import.problem', { defaultValue: 'Problem' })}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {errors.slice(0, SHOWN_ERRORS).map((er, i) => (
                  <Table.Tr key={`${er.row}:${er.field}:${i}`}>
                    <Table.Td>{er.row}</Table.Td>
                    <Table.Td>{er.field}</Table.Td>
                    <Table.Td>{er.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
          {errors.length > SHOWN_ERRORS && (
            <Text size="xs" mt="xs">
              {t('import.showing_first', { defaultValue: 'Showing the first {{shown}} of {{n}} problems.', shown: SHOWN_ERRORS, n: errors.length })}
            </Text>
          )}
        </Alert>
      )}

      <Group>
        <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={backToTable}>
          {t('import.back', { defaultValue: 'Back to list' })}
        </Button>
      </Group>
    </Stack>
  );
}

function ImportProgress({ t, step, locale }: { t: Translate; step: Step; locale: string }) {
  const view = stepView(t, step, locale);
  return (
    <Paper withBorder p="md" radius="md" data-testid="import-progress">
      <Stack gap={6}>
        <Text size="sm" aria-live="polite" data-testid="import-progress-text">
          {view.text}
        </Text>
        <Progress value={view.value} animated={view.moving} striped={view.moving} size="lg" aria-label={t('import.progress', { defaultValue: 'Import progress' })} />
      </Stack>
    </Paper>
  );
}

import { Button, Group, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconDeviceFloppy } from '@tabler/icons-react';
import type { JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export interface WorkflowHeaderProps {
  title: string;
  /** The page the screen belongs to, under the title ('Attendance', 'Mark List'). */
  page: string;
  /** Where Back goes: the page's table. */
  backTo: string;
  /** Without it the screen has no Save (it acts through its own buttons). */
  onSave?: () => void;
  saving?: boolean;
  saveDisabled?: boolean;
}

/** The top of a hand-written workflow screen: its title and page, Back to the table and Save, the same everywhere. */
export function WorkflowHeader({ title, page, backTo, onSave, saving = false, saveDisabled = false }: WorkflowHeaderProps): JSX.Element {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <div>
        <Title order={1} size="h3">
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {page}
        </Text>
      </div>
      <Group gap="xs">
        <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate(backTo)}>
          {t('btn.back', { defaultValue: 'Back' })}
        </Button>
        {onSave && (
          <Button leftSection={<IconDeviceFloppy size={16} />} onClick={onSave} loading={saving} disabled={saveDisabled}>
            {t('btn.save', { defaultValue: 'Save' })}
          </Button>
        )}
      </Group>
    </Group>
  );
}

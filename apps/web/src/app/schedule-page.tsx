import { Card, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import '@mantine/dates/styles.css';
import { DatePicker } from '@mantine/dates';
import { IconCalendarEvent } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../lib/format';

/**
 * sms/schedule/table, open to every signed-in user. The planner's own entries (holidays, exams, circulars)
 * arrive with those entities; until then it is the institute calendar with the chosen day.
 */
export function SchedulePage() {
  const { t } = useTranslation();
  const [day, setDay] = useState<string | null>(dayjs().format('YYYY-MM-DD'));
  return (
    <Stack gap="lg" p={{ base: 0, sm: 'xs' }}>
      <Title order={1} size="h3">
        {t('title.schedule', { defaultValue: 'Schedule' })}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder radius="md" p="md" style={{ display: 'flex', justifyContent: 'center' }}>
          <DatePicker value={day} onChange={setDay} size="md" />
        </Paper>
        <Card withBorder radius="md" padding="lg">
          <Group gap="xs">
            <IconCalendarEvent size={20} />
            <Text fw={650}>{day ? formatDate(day) : ''}</Text>
          </Group>
          <Text c="dimmed" size="sm" mt="sm">
            {t('grid.no_rows', { defaultValue: 'No Rows To Show' })}
          </Text>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

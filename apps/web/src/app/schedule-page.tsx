import type { DatesSetArg, DateSelectArg, EventClickArg, EventDropArg, EventInput } from '@fullcalendar/core';
import taLocale from '@fullcalendar/core/locales/ta-in';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin, { type EventResizeDoneArg } from '@fullcalendar/interaction';
import listPlugin from '@fullcalendar/list';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import { ActionIcon, Button, Chip, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { MOBILE_QUERY } from '../engine/responsive';
import { http } from '../lib/http-client';
import { useLanguage } from '../lib/i18n';
import { EntryDialog, type EntryDraft } from '../workflows/schedule/entry-dialog';
import {
  datesOf,
  viewOrDefault,
  kindColor,
  rangeOf,
  scheduleKinds,
  toCalendarInput,
  type ScheduleAnswer,
  type ScheduleEntry,
  type ScheduleView,
} from '../workflows/schedule/schedule-model';
import './schedule-page.css';

const EVENT_URL = '/api/schedule/event/';
/** A move is the drag itself: no 'Updated Successfully' toast after each one (errors still show). */
const quiet = { headers: { dontShowMsg: '1' } };

/**
 * sms/schedule/table, open to every signed-in user: holidays, exams, fee due dates and circulars of the
 * institute as the user may see them (the server decides), and the user's own entries, which they add by
 * selecting a day or a slot, move by dragging, stretch by resizing and delete from their dialog.
 * FullCalendar arrives with this lazily loaded page only.
 */
export function SchedulePage(): JSX.Element {
  const { t } = useTranslation();
  const language = useLanguage();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const narrow = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  const calendar = useRef<FullCalendar>(null);
  // ?date=YYYY-MM-DD&view=dayGridMonth opens the schedule there (a link from a dashboard card, a test).
  const [params] = useSearchParams();
  const initialDate = /^\d{4}-\d{2}-\d{2}$/.test(params.get('date') ?? '') ? (params.get('date') ?? undefined) : undefined;
  const [view, setView] = useState<ScheduleView>(() => viewOrDefault(params.get('view'), narrow));
  const [range, setRange] = useState<{ from: string; to: string } | null>(null);
  const [heading, setHeading] = useState('');
  const [draft, setDraft] = useState<EntryDraft | null>(null);
  const [busy, setBusy] = useState(false);
  // The kinds shown: the legend's chips switch each on and off (only exams, say, before a parents' meeting).
  const [shown, setShown] = useState<string[]>([...scheduleKinds]);

  const query = useQuery({
    queryKey: ['schedule', range?.from, range?.to],
    enabled: range !== null,
    queryFn: ({ signal }) => http.get<ScheduleAnswer>('/api/schedule/', { signal, query: { from: range!.from, to: range!.to } }),
  });
  const events = useMemo<EventInput[]>(
    () =>
      (query.data?.events ?? [])
        .filter((e) => shown.includes(e.kind))
        .map((e) => toCalendarInput(e, (n) => t('schedule.sections', { n, defaultValue: '{{n}} sections' }))),
    [query.data, shown, t],
  );
  const reload = (): Promise<void> => queryClient.invalidateQueries({ queryKey: ['schedule'] });

  const api = () => calendar.current?.getApi();
  const changeView = (v: string): void => {
    setView(v as ScheduleView);
    api()?.changeView(v);
  };
  const onDatesSet = (arg: DatesSetArg): void => {
    setRange(rangeOf(arg.start, arg.end));
    setHeading(arg.view.title);
    setView(arg.view.type as ScheduleView);
  };
  const onSelect = (arg: DateSelectArg): void => {
    api()?.unselect();
    setDraft({ mode: 'create', dates: datesOf(arg.start, arg.end, arg.allDay) });
  };
  const onEventClick = (arg: EventClickArg): void => {
    arg.jsEvent.preventDefault();
    const entry = arg.event.extendedProps.entry as ScheduleEntry;
    if (entry.kind === 'own') setDraft({ mode: 'edit', entry });
    else if (entry.link) void navigate(entry.link);
  };
  /** A drop or a resize: the server keeps the new dates, or the entry goes back where it was. */
  const onMoved = async (arg: EventDropArg | EventResizeDoneArg): Promise<void> => {
    const entry = arg.event.extendedProps.entry as ScheduleEntry;
    const start = arg.event.start;
    if (!start) return arg.revert();
    try {
      await http.put(`${EVENT_URL}${entry.key}`, { ...datesOf(start, arg.event.end, arg.event.allDay), row_ver: entry.rowVer }, quiet);
    } catch {
      arg.revert();
    }
    await reload();
  };
  const save = async (title: string, description: string): Promise<void> => {
    if (!draft) return;
    setBusy(true);
    try {
      if (draft.mode === 'create') await http.post(EVENT_URL, { ...draft.dates, sch_evt_ttl: title, sch_evt_dscr: description || null });
      else await http.put(`${EVENT_URL}${draft.entry.key}`, { sch_evt_ttl: title, sch_evt_dscr: description || null, row_ver: draft.entry.rowVer });
      setDraft(null);
      await reload();
    } catch {
      // The client has shown the server's message; the dialog stays open to correct it.
    } finally {
      setBusy(false);
    }
  };
  const remove = async (entry: ScheduleEntry): Promise<void> => {
    setBusy(true);
    try {
      await http.del(`${EVENT_URL}${entry.key}`);
      setDraft(null);
      await reload();
    } catch {
      // Shown by the client.
    } finally {
      setBusy(false);
    }
  };

  const views: { value: ScheduleView; label: string }[] = [
    { value: 'dayGridMonth', label: t('schedule.month', { defaultValue: 'Month' }) },
    { value: 'timeGridWeek', label: t('schedule.week', { defaultValue: 'Week' }) },
    { value: 'timeGridDay', label: t('schedule.day', { defaultValue: 'Day' }) },
    { value: 'listWeek', label: t('schedule.list', { defaultValue: 'List' }) },
  ];

  return (
    <Stack gap="md" p={{ base: 0, sm: 'xs' }}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={1} size="h3">
          {t('title.schedule', { defaultValue: 'Schedule' })}
        </Title>
        <SegmentedControl data={views} value={view} onChange={changeView} size="xs" aria-label={t('schedule.view', { defaultValue: 'View' })} />
      </Group>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="xs" wrap="nowrap">
          <ActionIcon variant="default" size="lg" onClick={() => api()?.prev()} aria-label={t('schedule.previous', { defaultValue: 'Previous' })}>
            <IconChevronLeft size={18} />
          </ActionIcon>
          <Button variant="default" onClick={() => api()?.today()}>
            {t('schedule.today', { defaultValue: 'Today' })}
          </Button>
          <ActionIcon variant="default" size="lg" onClick={() => api()?.next()} aria-label={t('schedule.next', { defaultValue: 'Next' })}>
            <IconChevronRight size={18} />
          </ActionIcon>
          <Text fw={650} size="lg" aria-live="polite" data-testid="schedule-heading">
            {heading}
          </Text>
        </Group>
        <Chip.Group multiple value={shown} onChange={setShown}>
          <Group gap={6} role="group" aria-label={t('schedule.legend', { defaultValue: 'Show' })}>
            {scheduleKinds.map((k) => (
              <Chip key={k} value={k} color={kindColor[k]} size="xs" variant="light">
                {t(`schedule.kind_${k}`, { defaultValue: k })}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Group>
      <Text size="xs" c="dimmed">
        {t('schedule.hint', { defaultValue: 'Select a day or a time to add your own entry; drag your entries to move them.' })}
      </Text>
      <Paper withBorder radius="md" p={{ base: 4, sm: 'sm' }} className="schedule-calendar">
        <FullCalendar
          ref={calendar}
          plugins={[dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin]}
          initialView={view}
          initialDate={initialDate}
          headerToolbar={false}
          locale={language === 'tamil' ? taLocale : 'en'}
          height="auto"
          events={events}
          editable={false}
          eventInteractive
          selectable
          // No selection mirror: with it a selection in the week and day grids never completes (FullCalendar
          // 6.1.21 under React 19: the mirror's render replaces the grid the drag started on); the highlight shows it.
          selectMirror={false}
          navLinks
          dayMaxEvents={3}
          nowIndicator
          // A school's day: the week and day grids start at 7 and end at 7, not at midnight.
          slotMinTime="07:00:00"
          slotMaxTime="19:00:00"
          datesSet={onDatesSet}
          select={onSelect}
          eventClick={onEventClick}
          eventDrop={(arg) => void onMoved(arg)}
          eventResize={(arg) => void onMoved(arg)}
          eventDidMount={(arg) => {
            // The sections behind an exam entry, and any title cut short by the cell, on hover.
            const entry = arg.event.extendedProps.entry as ScheduleEntry;
            arg.el.title = entry.detail ?? entry.title;
          }}
          noEventsContent={t('schedule.nothing', { defaultValue: 'Nothing scheduled' })}
        />
      </Paper>
      <EntryDialog draft={draft} busy={busy} onClose={() => setDraft(null)} onSave={(a, b) => void save(a, b)} onDelete={(e) => void remove(e)} />
    </Stack>
  );
}

// The signed-in screens' share of Mantine's styles (the sign-in page loads only its own).
import './mantine-signed-in.css';
import { Badge, Box, Button, Card, Container, Group, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconArrowRight, IconLayoutDashboard } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { useSession } from '../lib/session-store';
import { BrandMark } from './brand-mark';
import { InstituteSwitcher, LanguageSwitcher, YearSwitcher } from './context-switchers';
import { menuIcon } from './menu-icons';
import { PageLoader } from './root-layout';
import { NoActiveYearHint, needsAcademicYear } from './route-guard';
import { itemLabel, itemLink, menuSections, type MenuSection } from './side-menu';
import { useAcademicYears } from './use-academic-years';
import { useAllowedPages, type MenuItem } from './use-allowed-pages';
import { UserMenu } from './user-menu';

export interface LandingTile {
  section: MenuSection;
  /** The entry the tile opens: the module's first one that can be used now. */
  target: MenuItem;
  /** Every page of the module needs an academic year and none is chosen. */
  disabled: boolean;
}

/**
 * One tile per module. Without a year a tile opens the module's first page that needs none (an admin of a new
 * institute must reach Institute > Academic Year to create one); a module whose pages all need a year is
 * disabled until one is chosen.
 */
export function landingTiles(sections: readonly MenuSection[], hasYear: boolean): LandingTile[] {
  return sections.map((section) => {
    const first = section.children[0]!;
    if (hasYear) return { section, target: first, disabled: false };
    const usable = section.children.find((i) => !needsAcademicYear(i.page));
    return { section, target: usable ?? first, disabled: usable === undefined };
  });
}

/**
 * What the landing page has to ask: 'choice' when the user works in several institutes or the institute has
 * several active years; 'nothing' with one institute and its one active year (chosen already), so the user
 * goes straight on to the dashboard; 'unknown' while the years load.
 */
export function landingQuestion(institutes: number, years: { isLoading: boolean; isError: boolean; count: number }, yearChosen: boolean): 'choice' | 'nothing' | 'unknown' {
  if (institutes > 1) return 'choice';
  if (years.isLoading || (years.count === 1 && !yearChosen)) return 'unknown';
  // No active year, or the years could not be read: the page explains what is missing.
  return years.count === 1 && !years.isError ? 'nothing' : 'choice';
}

/** After sign-in: pick the institute and year, then open a module the user may use. */
export function LandingPage() {
  const { t } = useTranslation();
  const { user, institute, year } = useSession();
  const { items, isLoading } = useAllowedPages();
  const years = useAcademicYears();
  const tiles = landingTiles(menuSections(items), year !== null);
  // Only once the years have been read: while they load, or when the call failed, "none active" is not known.
  const noActiveYear = !!institute && !year && !years.isLoading && !years.isError;
  const question = landingQuestion(user?.institutes.length ?? 0, { isLoading: years.isLoading, isError: years.isError, count: years.years.length }, year !== null);
  if (question === 'nothing') return <Navigate to="/sms/dashboard" replace />;
  if (question === 'unknown') return <PageLoader />;

  return (
    <Box mih="100dvh" bg="var(--mantine-color-gray-0)">
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg" h={56}>
          <Group h="100%" justify="space-between" wrap="nowrap">
            <BrandMark to="/landing" />
            <Group gap="xs" wrap="nowrap">
              <LanguageSwitcher size="xs" w={118} />
              <UserMenu compact />
            </Group>
          </Group>
        </Container>
      </Box>

      <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
        <Stack gap="lg">
          <div>
            <Title order={1} size="h2">
              {t('landing.title', { name: user?.usr_full_nm ?? user?.usr_nm ?? '', defaultValue: 'Welcome, {{name}}' })}
            </Title>
            <Text c="dimmed" mt={4}>
              {t('landing.subtitle', { defaultValue: 'Choose the institute and academic year you are working in, then open a module.' })}
            </Text>
          </div>

          <Paper withBorder radius="md" p="md">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
              <InstituteSwitcher label={t('common.institute', { defaultValue: 'Institute' })} />
              <YearSwitcher label={t('common.academic_year', { defaultValue: 'Academic Year' })} />
              <Stack justify="flex-end">
                {/* The dashboard is institute-level (employee count, modules not set up): no year needed. */}
                <Button component={Link} to="/sms/dashboard" leftSection={<IconLayoutDashboard size={18} />} fullWidth>
                  {t('landing.open_dashboard', { defaultValue: 'Open dashboard' })}
                </Button>
              </Stack>
            </SimpleGrid>
          </Paper>

          {noActiveYear && <NoActiveYearHint />}

          <Title order={2} size="h4">
            {t('landing.modules', { defaultValue: 'Your modules' })}
          </Title>

          {isLoading ? (
            <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }}>
              {Array.from({ length: 8 }, (_, i) => (
                <Skeleton key={i} h={118} radius="md" />
              ))}
            </SimpleGrid>
          ) : tiles.length === 0 ? (
            <Paper withBorder p="lg" radius="md">
              <Text c="dimmed">{t('landing.no_modules', { defaultValue: 'You have no pages yet. Ask your administrator for permissions.' })}</Text>
            </Paper>
          ) : (
            <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="md">
              {tiles.map(({ section: s, target: first, disabled }) => {
                const Icon = menuIcon(s.icon);
                return (
                  <UnstyledButton
                    key={s.module}
                    component={Link}
                    to={itemLink(first)}
                    aria-disabled={disabled}
                    tabIndex={disabled ? -1 : undefined}
                    data-testid={`landing-tile-${s.module}`}
                    style={disabled ? { pointerEvents: 'none', opacity: 0.6 } : undefined}
                  >
                    <Card withBorder radius="md" padding="md" h="100%" className="campus-tile">
                      <Group justify="space-between" align="flex-start" wrap="nowrap">
                        <ThemeIcon size={42} radius="md" variant="light" color="campus">
                          <Icon size={24} stroke={1.6} />
                        </ThemeIcon>
                        {s.badge && (
                          <Badge size="sm" color="orange" variant="light">
                            {t('badge.new', { defaultValue: s.badge })}
                          </Badge>
                        )}
                      </Group>
                      <Text fw={650} mt="sm">
                        {t(`menu.${s.module}`, { defaultValue: s.title })}
                      </Text>
                      <Text size="sm" c="dimmed" lineClamp={2}>
                        {s.children.map((i) => itemLabel(i, t)).join(' · ')}
                      </Text>
                      {disabled ? (
                        <Text size="sm" c="dimmed" mt="sm">
                          {t('landing.needsYear', { defaultValue: 'Needs an active academic year' })}
                        </Text>
                      ) : (
                        <Group gap={4} mt="sm" c="campus.7">
                          <Text size="sm" fw={600}>
                            {itemLabel(first, t)}
                          </Text>
                          <IconArrowRight size={14} />
                        </Group>
                      )}
                    </Card>
                  </UnstyledButton>
                );
              })}
            </SimpleGrid>
          )}
        </Stack>
      </Container>
    </Box>
  );
}

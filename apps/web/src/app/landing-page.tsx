import { Badge, Box, Button, Card, Container, Group, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconArrowRight, IconLayoutDashboard } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../lib/session-store';
import { BrandMark } from './brand-mark';
import { InstituteSwitcher, LanguageSwitcher, YearSwitcher } from './context-switchers';
import { menuIcon } from './menu-icons';
import { menuSections, pageLink } from './side-menu';
import { useAllowedPages } from './use-allowed-pages';
import { UserMenu } from './user-menu';

/** After sign-in: pick the institute and year, then open a module the user may use. */
export function LandingPage() {
  const { t } = useTranslation();
  const { user, year } = useSession();
  const { pages, isLoading } = useAllowedPages();
  const sections = menuSections(pages);

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
                <Button component={Link} to="/sms/dashboard" leftSection={<IconLayoutDashboard size={18} />} disabled={!year} fullWidth>
                  {t('landing.open_dashboard', { defaultValue: 'Open dashboard' })}
                </Button>
              </Stack>
            </SimpleGrid>
          </Paper>

          <Title order={2} size="h4">
            {t('landing.modules', { defaultValue: 'Your modules' })}
          </Title>

          {isLoading ? (
            <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }}>
              {Array.from({ length: 8 }, (_, i) => (
                <Skeleton key={i} h={118} radius="md" />
              ))}
            </SimpleGrid>
          ) : sections.length === 0 ? (
            <Paper withBorder p="lg" radius="md">
              <Text c="dimmed">{t('landing.no_modules', { defaultValue: 'You have no pages yet. Ask your administrator for permissions.' })}</Text>
            </Paper>
          ) : (
            <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="md">
              {sections.map((s) => {
                const Icon = menuIcon(s.icon);
                const first = s.children[0]!;
                return (
                  <UnstyledButton key={s.module} component={Link} to={pageLink(first)} aria-disabled={!year} style={{ pointerEvents: year ? undefined : 'none' }}>
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
                        {s.children.map((p) => t(`page.${p.module}.${p.page}`, { defaultValue: p.label })).join(' · ')}
                      </Text>
                      <Group gap={4} mt="sm" c="campus.7">
                        <Text size="sm" fw={600}>
                          {t(`page.${first.module}.${first.page}`, { defaultValue: first.label })}
                        </Text>
                        <IconArrowRight size={14} />
                      </Group>
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

import { Box, Divider, Drawer, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BrandMark } from './brand-mark';
import { InstituteSwitcher, LanguageSwitcher, YearSwitcher } from './context-switchers';
import { SideMenu } from './side-menu';

/**
 * The side menu and the context switchers in a drawer, at 768 px or less. Its own file, loaded only on a
 * narrow screen: a wide screen's first load does not carry the Drawer.
 */
export function ShellDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      size="85%"
      padding={0}
      title={<BrandMark />}
      closeButtonProps={{ 'aria-label': t('btn.close', { defaultValue: 'Close' }) }}
      styles={{ header: { paddingInline: 12 }, body: { height: 'calc(100% - 60px)' } }}
    >
      <Stack gap={6} px="sm" pb="sm">
        <InstituteSwitcher size="sm" />
        <Group grow gap={6}>
          <YearSwitcher size="sm" />
          <LanguageSwitcher size="sm" />
        </Group>
      </Stack>
      <Divider />
      <Box h="calc(100% - 110px)">
        <SideMenu onNavigate={onClose} />
      </Box>
    </Drawer>
  );
}

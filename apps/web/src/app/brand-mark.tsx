import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconSchool } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '../lib/page-title';

export function BrandMark({ to = '/sms/dashboard', inverted = false }: { to?: string; inverted?: boolean }) {
  return (
    <Link to={to} style={{ textDecoration: 'none', color: 'inherit' }} aria-label={PRODUCT_NAME}>
      <Group gap={8} wrap="nowrap">
        <ThemeIcon size={32} radius="md" variant={inverted ? 'white' : 'filled'} color="campus">
          <IconSchool size={20} stroke={1.8} />
        </ThemeIcon>
        <Text fw={700} size="lg" c={inverted ? 'white' : undefined} style={{ letterSpacing: '-0.01em' }}>
          {PRODUCT_NAME}
        </Text>
      </Group>
    </Link>
  );
}

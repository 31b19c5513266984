import {
  IconBook,
  IconBooks,
  IconBuilding,
  IconBus,
  IconCash,
  IconCertificate,
  IconCircleDot,
  IconDoor,
  IconHistory,
  IconList,
  IconLock,
  IconReport,
  IconSchool,
  IconSparkles,
  IconUsers,
  IconWallet,
  type Icon,
} from '@tabler/icons-react';

/** pages.ts names icons as data; this is the one place that turns a name into a component. */
const icons: Record<string, Icon> = {
  school: IconSchool,
  users: IconUsers,
  door: IconDoor,
  building: IconBuilding,
  wallet: IconWallet,
  cash: IconCash,
  book: IconBook,
  lock: IconLock,
  list: IconList,
  bus: IconBus,
  sparkles: IconSparkles,
  report: IconReport,
  history: IconHistory,
  certificate: IconCertificate,
  books: IconBooks,
};

export function menuIcon(name: string): Icon {
  return icons[name] ?? IconCircleDot;
}

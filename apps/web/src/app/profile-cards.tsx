import { Stack } from '@mantine/core';
import { SignedInDevicesCard } from './signed-in-devices-card';
import { TwoStepCard } from './two-step-card';

/** What My Profile shows under the form of one's own record: cards about one's own sign-in. */
export function ProfileCards() {
  return (
    <Stack gap="md">
      <TwoStepCard />
      <SignedInDevicesCard />
    </Stack>
  );
}

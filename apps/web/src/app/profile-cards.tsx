import { TwoStepCard } from './two-step-card';

/** What My Profile shows under the form of one's own record: cards about one's own sign-in. */
export function ProfileCards() {
  return <TwoStepCard />;
}

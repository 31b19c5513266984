import { entity } from '@campus/entities/registry';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signIn } from '../lib/session-store';
import { adminUser } from '../test-support/fixtures';
import { createTestI18n, renderWithProviders, resetTestState, stubBrowser } from '../test-support/render-app';
import { WorkflowButtonDialog } from './workflow-button-dialog';

beforeEach(() => {
  stubBrowser();
  // jsdom has no scrollIntoView; Mantine's combobox scrolls the chosen option into view when it opens.
  if (!('scrollIntoView' in Element.prototype)) {
    Object.defineProperty(Element.prototype, 'scrollIntoView', { configurable: true, value: () => undefined });
  }
  signIn(adminUser);
});
afterEach(resetTestState);

async function openDialog(language: string, entityName: string, button: string) {
  const i18n = await createTestI18n();
  await i18n.changeLanguage(language);
  const e = entity(entityName);
  const b = (e.workflowButtons ?? []).find((x) => x.button === button)!;
  renderWithProviders(<WorkflowButtonDialog opened entity={e} button={b} row={{ [e.key]: 1, [e.title]: 'Annual Day' }} busy={false} onCancel={() => {}} onConfirm={() => {}} />, { i18n });
}

describe('workflow dialog options in the chosen language', () => {
  it("offers the circular e-mail's recipients in Tamil in the Tamil app", async () => {
    await openDialog('tamil', 'circular', 'send_mail');
    await screen.findByText('யாருக்கு');
    fireEvent.click(document.querySelector('input#recipients')!);
    expect((await screen.findAllByRole('option', { hidden: true })).map((o) => o.textContent)).toEqual(['பணியாளர்கள்', 'பெற்றோர்', 'பணியாளர்களும் பெற்றோரும்']);
  });

  it("offers the take action's statuses from the entity's own option keys", async () => {
    await openDialog('tamil', 'online_payment_request', 'take_action');
    await screen.findByText('நிலை');
    fireEvent.click(document.querySelector('input#oln_pay_acpt_sts')!);
    expect((await screen.findAllByRole('option', { hidden: true })).map((o) => o.textContent)).toEqual(['ஏற்கப்பட்டது', 'நிராகரிக்கப்பட்டது']);
  });
});

import { expect, test } from './fixtures.ts';
import { signInViaApi, uniqueEmail } from './support.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('create a plan, find it on home, share it, open it, and delete it', async ({ page }) => {
  await signInViaApi(page, uniqueEmail('host'), { firstName: 'Jamie', lastName: 'Lee' });
  await page.goto('/home');
  await expect(page.getByText('Ready to make plans?')).toBeVisible();

  // Create: the submit waits for a non-blank title.
  await page.getByRole('link', { name: 'Create Plan' }).or(page.getByRole('button', { name: 'Create Plan' })).first().click();
  await expect(page).toHaveURL(/\/create-plan$/);
  const submit = page.getByRole('button', { name: 'Create & Share Plan' });
  await expect(submit).toBeDisabled();
  await page.getByLabel('What are you planning?').fill('   ');
  await expect(submit).toBeDisabled();
  await page.getByLabel('What are you planning?').fill('Friday board games');
  await expect(page.getByText('Allow invited people to invite others')).toBeVisible();
  await expect(page.getByRole('switch', { name: /Open Invitations/ })).toBeChecked();
  await submit.click();
  await expect(page.getByText('Plan created!')).toBeVisible();
  await expect(page).toHaveURL(/\/plan\/[0-9a-f-]{36}\/share$/);
  const planId = page.url().match(/\/plan\/([0-9a-f-]{36})\/share/)![1];

  // Share: the link is {origin}/l/{slug}, shown as text and encoded in the QR code.
  await expect(page.getByRole('heading', { name: 'Friday board games' })).toBeVisible();
  const link = await page.getByRole('textbox', { name: 'Plan link' }).inputValue();
  expect(link).toMatch(new RegExp(`^${process.env.E2E_WEB_URL}/l/[A-Za-z0-9_-]{8,}$`));
  await expect(page.getByRole('img', { name: 'QR code of the plan link' })).toBeVisible();
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expect(page.getByRole('link', { name: /WhatsApp/ })).toHaveAttribute('href', /wa\.me/);

  // The public link resolves to this plan.
  const slug = link.split('/l/')[1];
  const bySlug = await fetch(`${process.env.E2E_WEB_URL}/api/plans/slug/${slug}`);
  expect(bySlug.status).toBe(200);
  expect(((await bySlug.json()) as { id: string }).id).toBe(planId);

  // Plan page: status card, who's coming, quick actions.
  await page.getByRole('link', { name: 'View Plan Details' }).or(page.getByRole('button', { name: 'View Plan Details' })).first().click();
  await expect(page).toHaveURL(new RegExp(`/plan/${planId}$`));
  await expect(page.getByText('Friday board games').first()).toBeVisible();
  await expect(page.getByText("Who's coming").first()).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Ideas' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Availability' })).toBeVisible();

  // Home lists it with 'TBD' and the host's name.
  await page.goto('/home');
  const card = page.getByRole('link', { name: /Friday board games/ });
  await expect(card).toBeVisible();
  await expect(card.getByText('TBD')).toBeVisible();
  await expect(card.getByText(/Jamie/)).toBeVisible();

  // Delete: the dialog's No keeps it, Yes removes it.
  await card.click();
  await page.getByRole('button', { name: 'Delete Plan' }).click();
  await expect(page.getByText('Deleting this plan is permanent. Are you sure?')).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'No', exact: true }).click();
  await expect(page.getByText('Deleting this plan is permanent. Are you sure?')).toBeHidden();
  await page.getByRole('button', { name: 'Delete Plan' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes', exact: true }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByText('Ready to make plans?')).toBeVisible();
  const gone = await fetch(`${process.env.E2E_WEB_URL}/api/plans/${planId}`);
  expect(gone.status).toBe(404);
});

test('a member leaves a plan; the host hands over when leaving', async ({ browser }) => {
  // Host creates a plan through the UI; a second member joins by API.
  const hostPage = await (await browser.newContext()).newPage();
  const hostToken = await signInViaApi(hostPage, uniqueEmail('host'), { firstName: 'Ana', lastName: 'Host' });
  const created = await fetch(`${process.env.E2E_WEB_URL}/api/plans`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${hostToken}` },
    body: JSON.stringify({ title: 'Picnic', isOpenInvite: true }),
  });
  expect(created.status).toBe(201);
  const plan = (await created.json()) as { id: string };

  const memberPage = await (await browser.newContext()).newPage();
  const memberToken = await signInViaApi(memberPage, uniqueEmail('member'), { firstName: 'Ben', lastName: 'Member' });
  const joined = await fetch(`${process.env.E2E_WEB_URL}/api/plans/${plan.id}/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${memberToken}` },
    body: JSON.stringify({}),
  });
  expect(joined.ok).toBe(true);

  // The host sees two people coming.
  await hostPage.goto(`/plan/${plan.id}`);
  await expect(hostPage.getByText(/2 (people|joined|going)/).first()).toBeVisible();

  // The host leaves: the member becomes host and keeps the plan.
  await hostPage.getByRole('button', { name: 'Leave Plan' }).click();
  await expect(hostPage.getByRole('dialog')).toContainText(/last participant|deleted/);
  await hostPage.getByRole('dialog').getByRole('button', { name: /Leave/ }).click();
  await expect(hostPage).toHaveURL(/\/home$/);
  await expect(hostPage.getByText('Picnic')).toHaveCount(0);

  await memberPage.goto(`/plan/${plan.id}`);
  await expect(memberPage.getByRole('button', { name: 'Delete Plan' })).toBeVisible();
  // The last one out deletes the plan.
  await memberPage.getByRole('button', { name: 'Leave Plan' }).click();
  await memberPage.getByRole('dialog').getByRole('button', { name: /Leave/ }).click();
  await expect(memberPage).toHaveURL(/\/home$/);
  const gone = await fetch(`${process.env.E2E_WEB_URL}/api/plans/${plan.id}`);
  expect(gone.status).toBe(404);
});

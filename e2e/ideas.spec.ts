import { expect, test } from './fixtures.ts';
import { signInViaApi, uniqueEmail } from './support.ts';

// Ideas end to end, two people on phones: a guest (stored session, as the
// join page leaves it) and the host (signed in).

const api = (path: string) => `${process.env.E2E_WEB_URL}${path}`;

async function createPlan(token: string, title: string): Promise<{ id: string; slug: string }> {
  const created = await fetch(api('/api/plans'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ title, isOpenInvite: true }),
  });
  expect(created.status).toBe(201);
  return (await created.json()) as { id: string; slug: string };
}

test('a guest suggests and votes, the host sees the voter, both comment, the host picks', async ({ browser }) => {
  const hostPage = await (await browser.newContext()).newPage();
  const hostToken = await signInViaApi(hostPage, uniqueEmail('host'), { firstName: 'Ana', lastName: 'Host' });
  const plan = await createPlan(hostToken, 'Saturday hangout');

  // The guest joins by API and keeps the session where the app keeps it.
  const joined = await fetch(api('/api/guest-session'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Gus Guest', planId: plan.id }),
  });
  expect(joined.status).toBe(201);
  const guest = (await joined.json()) as { id: string; name: string; secret: string };
  const guestContext = await browser.newContext();
  await guestContext.addInitScript((session) => {
    if (!localStorage.getItem('guestSession')) localStorage.setItem('guestSession', JSON.stringify(session));
  }, { id: guest.id, name: guest.name, planId: plan.id, secret: guest.secret });
  const guestPage = await guestContext.newPage();

  // Guest: suggest on the dashboard (Add waits for text), vote, comment.
  await guestPage.goto(`/l/${plan.slug}/dashboard`);
  await expect(guestPage.getByText('No ideas yet')).toBeVisible();
  const suggest = guestPage.getByRole('textbox', { name: 'Suggest a new idea' });
  const add = guestPage.getByRole('button', { name: 'Add', exact: true });
  await expect(add).toBeDisabled();
  await suggest.fill('Board game café');
  await add.click();
  const guestIdea = guestPage.getByRole('article', { name: 'Board game café' });
  await expect(guestIdea).toBeVisible();
  await expect(suggest).toHaveValue('');

  await guestIdea.getByRole('button', { name: 'Vote for Board game café (0 votes)' }).click();
  await expect(guestIdea.getByRole('button', { name: 'Vote for Board game café (1 vote)' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(guestIdea.getByRole('img', { name: '1 vote: Gus Guest (Guest)' })).toBeVisible();
  const mirrored = await guestPage.evaluate(() => JSON.parse(localStorage.getItem('guestVotes') ?? '{}') as { planIdeaIds?: string[] });
  expect(mirrored.planIdeaIds).toHaveLength(1);

  await guestIdea.getByRole('button', { name: 'Add comment' }).click();
  await guestIdea.getByRole('textbox', { name: 'Add a comment on Board game café' }).fill('Bring snacks?');
  await guestIdea.getByRole('textbox', { name: 'Add a comment on Board game café' }).press('Enter');
  await expect(guestIdea.getByText('Bring snacks?')).toBeVisible();
  await expect(guestIdea.getByRole('button', { name: '1 comment' })).toBeVisible();

  // Host: the count, the Top Idea badge, the voter (tooltip '1 vote'), the comment.
  await hostPage.goto(`/plan/${plan.id}`);
  const hostIdea = hostPage.getByRole('article', { name: 'Board game café' });
  await expect(hostIdea.getByRole('button', { name: 'Vote for Board game café (1 vote)' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await expect(hostIdea.getByText('Top Idea')).toBeVisible();
  const voters = hostIdea.getByRole('img', { name: '1 vote: Gus Guest (Guest)' });
  await expect(voters).toBeVisible();
  await voters.focus();
  await expect(hostPage.getByRole('tooltip')).toHaveText('1 vote');

  await hostIdea.getByRole('button', { name: '1 comment' }).click();
  await expect(hostIdea.getByText('Bring snacks?')).toBeVisible();
  const reply = hostIdea.getByRole('textbox', { name: 'Add a comment on Board game café' });
  await reply.fill('Yes please');
  await reply.press('Enter');
  await expect(hostIdea.getByText('Yes please')).toBeVisible();
  await expect(hostIdea.getByRole('button', { name: '2 comments' })).toBeVisible();

  // The host picks it: the button and the status card say so.
  await hostIdea.getByRole('button', { name: 'Pick', exact: true }).click();
  await expect(hostIdea.getByRole('button', { name: 'Picked' })).toBeVisible();
  await expect(hostPage.getByRole('region', { name: 'Plan Status' })).toContainText('Board game café');

  // Guest, after a reload: 'Host's Pick', the host's reply, the own vote kept.
  await guestPage.reload();
  const again = guestPage.getByRole('article', { name: 'Board game café' });
  await expect(again.getByText("Host's Pick")).toBeVisible();
  await expect(again.getByRole('button', { name: 'Vote for Board game café (1 vote)' })).toHaveAttribute('aria-pressed', 'true');
  await again.getByRole('button', { name: '2 comments' }).click();
  await expect(again.getByText('Yes please')).toBeVisible();

  // The ideas page (step 1 of 3) leads on to availability.
  await guestPage.goto(`/l/${plan.slug}/ideas`);
  await expect(guestPage.getByRole('heading', { name: 'Plan Ideas' })).toBeVisible();
  await expect(guestPage.getByText('Step 1 of 3')).toBeVisible();
  await expect(guestPage.getByRole('link', { name: 'Create Account' })).toHaveAttribute(
    'href',
    `/auth?returnTo=/l/${plan.slug}/ideas`,
  );
  await guestPage.getByRole('link', { name: 'Continue to Availability' }).click();
  await expect(guestPage).toHaveURL(new RegExp(`/l/${plan.slug}/availability$`));

  // Picking again un-picks.
  await hostIdea.getByRole('button', { name: 'Picked' }).click();
  await expect(hostIdea.getByRole('button', { name: 'Pick', exact: true })).toBeVisible();
});

test('a visitor who is neither signed in nor a guest is sent from the ideas page to join', async ({ browser }) => {
  const hostPage = await (await browser.newContext()).newPage();
  const hostToken = await signInViaApi(hostPage, uniqueEmail('host'));
  const plan = await createPlan(hostToken, 'Picnic');
  const page = await (await browser.newContext()).newPage();
  await page.goto(`/l/${plan.slug}/ideas`);
  await expect(page).toHaveURL(new RegExp(`/l/${plan.slug}$`));
});

test('interests feed the suggestions panel; manage removes with a confirm', async ({ page }) => {
  const token = await signInViaApi(page, uniqueEmail('fan'), { firstName: 'Fay', lastName: 'Fan' });
  await page.goto('/interests');
  await page.getByRole('button', { name: 'Add Board Games' }).click();
  await expect(page.getByRole('button', { name: 'Board Games, added' })).toContainText('Added');
  await page.getByRole('textbox', { name: 'Add an interest' }).fill('Sushi');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Your interests' })).toContainText('Sushi');

  // The plan's suggestions come from its members' interests.
  const plan = await createPlan(token, 'Team night');
  await page.goto(`/plan/${plan.id}`);
  await page.getByRole('button', { name: 'Suggest Idea' }).click();
  const panel = page.getByRole('region', { name: 'Ideas based on common interests' });
  const choices = panel.getByRole('list', { name: 'Suggestions' }).getByRole('button');
  await expect(choices.first()).toBeVisible();
  expect(await choices.count()).toBeLessThanOrEqual(3);
  const first = (await choices.first().innerText()).split('\n')[0]!.trim();
  await choices.first().click();
  await panel.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByRole('article', { name: first })).toBeVisible();

  // Manage: Indoor Activities holds Board Games; removing asks first.
  await page.goto('/interests/manage');
  const indoor = page.getByRole('button', { name: /^Indoor Activities/ });
  await expect(indoor).toContainText('1');
  await indoor.click();
  await page.getByRole('button', { name: 'Remove Board Games' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove interest?' });
  await expect(dialog).toContainText('This will permanently remove this interest from your profile.');
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(dialog).toBeHidden();
  await expect(indoor).toContainText('0');
});

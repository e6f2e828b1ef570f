import { check, phonePage } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { apiCall, apiPost, signInViaApi, uniqueEmail } from './support.ts';

// Moderation on phones (docs/decisions/0065-moderation.md): a stranger with
// the link spams a plan; the host deletes the spam comment and idea, then
// removes the spammer, each after a confirm dialog that passes axe, and the
// spammer's own phone follows live: the idea goes, then the page sends them
// to the join page, which says they were removed and refuses a new name from
// that phone; the host's list shows them as removed.

test('the host deletes a spam comment and idea and removes the spammer, who is sent to the join page', async ({ browser }) => {
  const hostPage = await phonePage(browser);
  const hostToken = await signInViaApi(hostPage, uniqueEmail('host'), { firstName: 'Ana', lastName: 'Host' });
  const plan = await apiPost<{ id: string; slug: string }>('/api/plans', { title: 'Big group hangout', isOpenInvite: true }, hostToken);
  await apiPost('/api/plans/' + plan.id + '/ideas', { text: 'Picnic in the park' }, hostToken);

  // The spammer joins by link as a guest and writes.
  const spammer = await apiPost<{ id: string; name: string; secret: string }>('/api/guest-session', { name: 'Spammy Sam', planId: plan.id });
  const spam = await apiPost<{ id: string }>(`/api/plans/${plan.id}/ideas`, { text: 'Buy cheap watches', guestId: spammer.id });
  const hostIdeas = await apiCall<Array<{ id: string; text: string }>>('GET', `/api/plans/${plan.id}/ideas`);
  const picnic = hostIdeas.find((idea) => idea.text === 'Picnic in the park')!;
  await apiPost(`/api/ideas/${picnic.id}/comments`, { text: 'Visit my shop!!!', guestId: spammer.id });

  const spammerContext = await browser.newContext({ viewport: { width: 360, height: 780 } });
  await spammerContext.addInitScript((session) => {
    if (!localStorage.getItem('guestSession')) localStorage.setItem('guestSession', JSON.stringify(session));
  }, { id: spammer.id, name: spammer.name, planId: plan.id, secret: spammer.secret });
  const spammerPage = await spammerContext.newPage();
  await spammerPage.goto(`/l/${plan.slug}/dashboard`);
  await expect(spammerPage.getByRole('article', { name: 'Buy cheap watches' })).toBeVisible();

  // The host deletes the comment...
  await hostPage.goto(`/plan/${plan.id}`);
  const picnicCard = hostPage.getByRole('article', { name: 'Picnic in the park' });
  await picnicCard.getByRole('button', { name: '1 comment' }).click();
  await picnicCard.getByRole('button', { name: 'Delete comment by Spammy Sam' }).click();
  const commentDialog = hostPage.getByRole('dialog', { name: 'Delete this comment?' });
  await check(hostPage, 'delete comment dialog', commentDialog);
  await commentDialog.getByRole('button', { name: 'Delete' }).click();
  await expect(picnicCard.getByText('Visit my shop!!!')).toHaveCount(0);
  await expect(picnicCard.getByRole('button', { name: 'Add comment' })).toBeVisible();

  // ...and the idea, which leaves the spammer's screen too.
  const spamCard = hostPage.getByRole('article', { name: 'Buy cheap watches' });
  await spamCard.getByRole('button', { name: 'Delete idea Buy cheap watches' }).click();
  const ideaDialog = hostPage.getByRole('dialog', { name: 'Delete this idea?' });
  await check(hostPage, 'delete idea dialog', ideaDialog);
  await ideaDialog.getByRole('button', { name: 'Delete' }).click();
  await expect(spamCard).toHaveCount(0);
  await expect(spammerPage.getByRole('article', { name: 'Buy cheap watches' })).toHaveCount(0);
  expect((await fetch(`${process.env.E2E_WEB_URL}/api/ideas/${spam.id}/voters`)).status).toBe(404);

  // The host removes the spammer from who's coming.
  await hostPage.getByRole('button', { name: 'See everyone coming (2)' }).click();
  await expect(hostPage.getByRole('button', { name: 'Remove Ana Host' })).toHaveCount(0);
  await hostPage.getByRole('button', { name: 'Remove Spammy Sam' }).click();
  const removeDialog = hostPage.getByRole('dialog', { name: 'Remove Spammy Sam?' });
  await check(hostPage, 'remove participant dialog', removeDialog);
  await removeDialog.getByRole('button', { name: 'Remove' }).click();
  await expect(hostPage.getByText('Spammy Sam is no longer in this plan')).toBeVisible();
  await expect(hostPage.getByRole('button', { name: 'See everyone coming (1)' })).toBeVisible();

  // The spammer's phone learns it at once: back to the join page, told why,
  // and a new name from this phone is refused (docs/decisions/0083-removal-holds.md).
  await expect(spammerPage).toHaveURL(new RegExp(`/l/${plan.slug}$`));
  await expect(spammerPage.getByText('The host removed you from this plan')).toBeVisible();
  expect(await spammerPage.evaluate(() => localStorage.getItem('guestSession'))).toBeNull();
  await spammerPage.getByRole('textbox', { name: "What's your name?" }).fill('Honest Harry');
  await spammerPage.getByRole('button', { name: 'Continue' }).click();
  await expect(spammerPage.getByText('The host removed you from this plan')).toHaveCount(2);
  await expect(spammerPage).toHaveURL(new RegExp(`/l/${plan.slug}$`));

  // The host sees who was removed, and could let them back in.
  await hostPage.getByRole('button', { name: 'See everyone coming (1)' }).click();
  const removed = hostPage.getByRole('list', { name: 'Removed' });
  await expect(removed.getByText('Spammy Sam (Guest)')).toBeVisible();
  await expect(removed.getByRole('button', { name: 'Allow Spammy Sam back' })).toBeVisible();
  await check(hostPage, 'who was removed', removed);
});

// Co-hosts (docs/decisions/0098-cohosts.md, 0099): the host makes a member a
// co-host from who's coming (the list with its badges and buttons passes
// axe, light and dark); the member's phone gets the host's controls live
// (Pick, Delete on the host's idea) but not Delete Plan, and picks.
test('the host makes a member a co-host, whose phone gets the host controls but Delete Plan', async ({ browser }) => {
  const hostPage = await phonePage(browser);
  const hostToken = await signInViaApi(hostPage, uniqueEmail('host'), { firstName: 'Ana', lastName: 'Host' });
  const plan = await apiPost<{ id: string }>('/api/plans', { title: 'Board game night', isOpenInvite: true }, hostToken);
  await apiPost(`/api/plans/${plan.id}/ideas`, { text: 'Catan' }, hostToken);
  const moPage = await phonePage(browser);
  const moToken = await signInViaApi(moPage, uniqueEmail('mo'), { firstName: 'Mo', lastName: 'Member' });
  await apiPost(`/api/plans/${plan.id}/join`, {}, moToken);

  await moPage.goto(`/plan/${plan.id}`);
  const catan = moPage.getByRole('article', { name: 'Catan' });
  await expect(catan).toBeVisible();
  await expect(catan.getByRole('button', { name: 'Pick' })).toHaveCount(0);

  await hostPage.goto(`/plan/${plan.id}`);
  await hostPage.getByRole('button', { name: 'See everyone coming (2)' }).click();
  const everyone = hostPage.getByRole('list', { name: 'Everyone coming' });
  await check(hostPage, "who's coming, the host's list", everyone.getByRole('button', { name: 'Make Mo Member a co-host' }));
  await everyone.getByRole('button', { name: 'Make Mo Member a co-host' }).click();
  await expect(hostPage.getByText('Mo Member can now run the plan with you')).toBeVisible();
  await expect(everyone.getByRole('button', { name: 'Remove Mo Member as co-host' })).toBeVisible();
  await expect(everyone.getByText('Co-host', { exact: true })).toBeVisible();

  // Mo's phone follows: the host's controls appear, Delete Plan does not.
  await expect(catan.getByRole('button', { name: 'Pick' })).toBeVisible();
  await expect(catan.getByRole('button', { name: 'Delete idea Catan' })).toBeVisible();
  await expect(moPage.getByRole('button', { name: 'Delete Plan' })).toHaveCount(0);
  await catan.getByRole('button', { name: 'Pick' }).click();
  await expect(catan.getByRole('button', { name: 'Picked' })).toBeVisible();
  await expect(hostPage.getByRole('article', { name: 'Catan' }).getByRole('button', { name: 'Picked' })).toBeVisible();
});

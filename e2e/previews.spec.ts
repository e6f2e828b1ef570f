import { check, phonePage } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { apiPost, signInViaApi, uniqueEmail } from './support.ts';

// Link previews (docs/api.md "Link previews").

// The share page's "Link preview" (docs/web-app.md "Link preview"): the card
// as a chat shows it, and the host's switch; axe clean in both schemes.
test.describe('share page', () => {
  test('the host turns details off and on, the preview follows; others see the card but no switch', async ({ browser }) => {
    const hostPage = await phonePage(browser);
    const hostToken = await signInViaApi(hostPage, uniqueEmail('host'), { firstName: 'Hana', lastName: 'Host' });
    const plan = await apiPost<{ id: string; slug: string }>('/api/plans', { title: 'Ramen night', isOpenInvite: true }, hostToken);

    await hostPage.goto(`/plan/${plan.id}/share`);
    const preview = hostPage.getByRole('region', { name: 'Link preview' });
    const line = 'Hana wants to hang out. Suggest ideas and vote on dates.';
    const picture = preview.getByRole('img', { name: `Ramen night: ${line}` });
    await expect(picture).toHaveAttribute('src', new RegExp(`^/api/plans/slug/${plan.slug}/preview\\.png\\?v=`));
    await expect(preview.getByText('Ramen night', { exact: true })).toBeVisible();
    await expect(preview.getByText(line, { exact: true })).toBeVisible();
    const details = preview.getByRole('switch', { name: 'Show details in link previews' });
    await expect(details).toBeChecked();
    await check(hostPage, 'share page, link preview with details', details);

    // Off: the generic card at once, and so it stays after a reload.
    await details.click();
    await expect(details).not.toBeChecked();
    const generic = preview.getByRole('img', { name: 'Hangplan: turn "we should hang out" into a real plan.' });
    await expect(generic).toHaveAttribute('src', '/og-image.png');
    await expect(preview.getByText('Ramen night', { exact: true })).toBeHidden();
    await expect(details).toBeEnabled();
    await expect.poll(() => generic.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);
    await check(hostPage, 'share page, generic link preview', details);
    await hostPage.reload();
    await expect(details).not.toBeChecked();
    await expect(generic).toBeVisible();

    // A member sees the same card, and no switch.
    const memberPage = await phonePage(browser);
    const memberToken = await signInViaApi(memberPage, uniqueEmail('member'), { firstName: 'Mo', lastName: 'Member' });
    await apiPost(`/api/plans/${plan.id}/join`, { slug: plan.slug }, memberToken);
    await memberPage.goto(`/plan/${plan.id}/share`);
    const memberPreview = memberPage.getByRole('region', { name: 'Link preview' });
    await expect(memberPreview.getByRole('img', { name: 'Hangplan: turn "we should hang out" into a real plan.' })).toBeVisible();
    await expect(memberPreview.getByRole('switch')).toHaveCount(0);

    // On again: the plan's card comes back, for the host and, live, for the member.
    await details.click();
    await expect(details).toBeChecked();
    await expect(picture).toBeVisible();
    await expect(preview.getByText(line, { exact: true })).toBeVisible();
    await expect(memberPreview.getByRole('img', { name: `Ramen night: ${line}` })).toBeVisible();
    await memberPage.context().close();
  });
});

// Every picture `npm run screenshots` takes, in the story's order: its file
// name in docs/screenshots/ and what it shows. One list for the script, the
// index it writes (docs/screenshots/README.md) and the test that holds the
// folder to both (scripts/screenshots.test.ts).

export const SCREENS = {
  '01-landing': 'The landing page',
  '02-sign-in-code': 'Signing in: the 6-digit code from the e-mail',
  '03-home': "The host's home: their plans",
  '03-home-dark': 'The same, on a phone in dark mode',
  '04-create-plan': 'Creating a plan',
  '05-share': 'Sharing a plan: its link and QR code',
  '06-share-reset-link': 'The host resets the link (the old one stops working)',
  '07-plan-ideas': "A plan's ideas, with votes and voters",
  '07-plan-ideas-dark': 'The same, on a phone in dark mode',
  '08-plan-availability': "A plan's dates: the host's view of the votes",
  '09-people-removed': "Who's coming, with someone the host removed (and may let back)",
  '10-join': 'Joining by link: a guest gives a name',
  '11-is-this-you': '"Is this you?": a name already in the plan',
  '12-guest-dashboard': "A guest's dashboard",
  '12-guest-dashboard-dark': 'The same, on a phone in dark mode',
  '13-guest-ideas': "A guest's ideas page",
  '14-guest-availability': "A guest's availability page",
  '15-calendar-import': 'A calendar file imported on the phone: busy days marked',
  '16-notifications-install': 'The end of the dashboard: turning notifications on, installing the app',
  '17-profile': 'The profile',
  '18-calendar-feed': "The profile's calendar feed: the member's plans in their calendar",
  '19-delete-account': 'Deleting the account: asked first',
  '20-interests': 'Interests',
  '21-manage-interests': 'Choosing interests',
  '22-not-found': 'A page that does not exist',
  '23-final-time-set': 'The host has set the idea, date and time',
  '23-final-time-set-dark': 'The same, on a phone in dark mode',
  '24-plan-completed': 'A decided plan: the host is asked "Are you coming?" first',
  '25-are-you-coming': 'A guest\'s dashboard once the date is set: "Are you coming?", Going with a friend',
  '25-are-you-coming-dark': 'The same, on a phone in dark mode',
} as const;

export type ScreenName = keyof typeof SCREENS;

export const SCREEN_NAMES = Object.keys(SCREENS) as ScreenName[];

/** docs/screenshots/README.md: every picture with what it shows. */
export function screenshotIndex(): string {
  return [
    '# Screenshots',
    '',
    'Every screen at phone size (390×844), taken by `npm run screenshots` from a',
    'seeded, running app ([testing.md](../testing.md#screenshots-and-benches));',
    'the list is `scripts/screenshots/screens.ts`.',
    '',
    '| screen | file |',
    '|---|---|',
    ...SCREEN_NAMES.map((name) => `| ${SCREENS[name]} | [${name}.png](${name}.png) |`),
    '',
  ].join('\n');
}

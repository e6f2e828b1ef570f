import { useMemo } from 'react';
import { Button, Menu, Text } from '@mantine/core';
import { IconCalendar } from '../../../components/icons';
import { showErrorMessage } from '../../../lib/toast';
import type { CalendarPlan } from '../calendar-plan';
import { downloadIcs, googleCalendarUrl, icsFileName, planCalendarEvent, planIcs } from '../plan-event';

interface AddToCalendarMenuProps {
  plan: CalendarPlan;
  /** 'header': the plan page's compact header button; 'button': a full button in a card. */
  variant?: 'header' | 'button';
}

/**
 * Spec §2 'Add to Calendar': a Google Calendar link and a .ics download of
 * the plan's event (floating local time; hours per spec §9). Renders nothing
 * until an idea and a time slot are both locked.
 */
export function AddToCalendarMenu({ plan, variant = 'header' }: AddToCalendarMenuProps) {
  const event = useMemo(() => planCalendarEvent(plan, window.location.origin), [plan]);
  if (!event) return null;

  const download = () => {
    try {
      downloadIcs(planIcs(plan, event), icsFileName(event));
    } catch {
      showErrorMessage('Error', 'The calendar file could not be created');
    }
  };

  const header = variant === 'header';
  return (
    // No focus placeholder: a role="presentation" child inside role="menu" is an
    // ARIA error (axe aria-required-children); focus goes to the first item.
    <Menu position="bottom-end" shadow="md" width={200} withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <Button
          // On the teal confirmed cards, light teal text falls under 4.5:1: filled teal 9 is 5:1.
          variant={header ? 'subtle' : 'filled'}
          color={header ? 'violet' : 'teal.9'}
          radius="xl"
          px={header ? 'xs' : undefined}
          leftSection={<IconCalendar size={18} />}
          aria-label="Add to Calendar"
        >
          {/* On a phone the header keeps only the icon; the name stays for screen readers. */}
          <Text component="span" inherit visibleFrom={header ? 'xs' : undefined}>
            Add to Calendar
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component="a" href={googleCalendarUrl(event)} target="_blank" rel="noopener noreferrer">
          Google Calendar
        </Menu.Item>
        <Menu.Item onClick={download}>Download .ics</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

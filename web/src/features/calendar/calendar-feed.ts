// The member's personal calendar feed (docs/calendars.md "Calendar feed";
// docs/calendars.md "Your plans in your calendar"): its URL, and a reset.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { calendarFeedKeys } from '../../lib/query-keys';
import { showErrorToast, showSuccessToast } from '../../lib/toast';
import { calendarFeedSchema } from '../../../../supabase/functions/_shared/contract/calendar-feed';

/** GET /api/calendar/feed: the URL, issued by the server the first time it is asked for. */
export function calendarFeedQueryOptions() {
  return queryOptions({
    queryKey: calendarFeedKeys.mine(),
    queryFn: apiGet(apiPaths.calendarFeed(), (body) => calendarFeedSchema.parse(body)),
    // It changes only when the member resets it (here), so no refetch on focus.
    staleTime: Infinity,
  });
}

/** "Reset link": POST /api/calendar/feed/rotate; the old URL stops working at once. */
export function useResetCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const res = await apiRequest('POST', apiPaths.calendarFeedReset());
      return calendarFeedSchema.parse(await res.json());
    },
    onSuccess: (feed) => {
      queryClient.setQueryData(calendarFeedKeys.mine(), feed);
      showSuccessToast('Calendar link reset', 'Subscribe again with the new link');
    },
    onError: (error) => showErrorToast(error, 'Failed to reset the calendar link'),
  });
}

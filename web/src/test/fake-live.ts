import type { LiveTransport, MyPlansLiveEvent, PlanChange, PlanLiveEvent } from '../lib/live';

// A live transport for component tests: no network; the test opens nothing,
// sees what the screens subscribed to, and sends the events itself.

export function fakeLiveTransport() {
  const plans = new Map<string, { emit: (event: PlanLiveEvent) => void; open: boolean }>();
  const opened: string[] = [];
  let myPlans: { emit: (event: MyPlansLiveEvent) => void; open: boolean; watched: readonly string[] } | null = null;

  const transport: LiveTransport = {
    openPlan(planId, emit) {
      const connection = { emit, open: true };
      plans.set(planId, connection);
      opened.push(planId);
      return { close: () => void (connection.open = false) };
    },
    openMyPlans(planIds, emit) {
      const connection = { emit, open: true, watched: planIds };
      myPlans = connection;
      return {
        close: () => void (connection.open = false),
        watch: (ids) => void (connection.watched = ids),
      };
    },
  };

  const planConnection = (planId: string) => {
    const connection = plans.get(planId);
    if (!connection?.open) throw new Error(`No open live connection for plan ${planId}`);
    return connection;
  };

  return {
    transport,
    /** Plan ids in the order their connections opened. */
    opened,
    isOpen: (planId: string) => plans.get(planId)?.open ?? false,
    /** An event on the plan's connection (as the server or Realtime would send it). */
    send: (planId: string, event: PlanLiveEvent) => planConnection(planId).emit(event),
    change: (change: PlanChange) => planConnection(change.planId).emit({ type: 'change', change }),
    myPlans: () => (myPlans?.open ? myPlans : null),
    sendMyPlans: (event: MyPlansLiveEvent) => {
      if (!myPlans?.open) throw new Error('No open live connection for the home list');
      myPlans.emit(event);
    },
  };
}

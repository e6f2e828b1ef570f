// The Supabase Realtime transport, for builds that name a Supabase project:
// the database broadcasts each change on the public topic `plan:{id}`, event
// `change`, with the same payload as the SSE feed. Broadcasts carry no resume:
// when a channel comes back after a drop, everything is assumed changed.
//
// The topic is public and the anon key is in the bundle, so anyone can send on
// it: a broadcast is only a hint to refetch (decision 0089). Its version is
// never kept (`ready` names none, so the hub has no high-water mark to raise;
// the versions the page keeps are the ETags of the API's answers), and a
// `deleted` neither closes the channel nor stops it: the plan's reads ask the
// API, and only its 404 ends the plan on screen (plan-sync.ts).
import { fullChange, parseChange, realtimeTopic, type LiveStatus, type LiveTransport, type PlanChange } from './types';

/** A resumed channel cannot say which version it missed: refetch whatever the cache holds. */
const UNKNOWN_VERSION = Number.POSITIVE_INFINITY;

/** The part of a Realtime channel this transport uses (supabase-js's RealtimeChannel fits). */
export interface RealtimeChannelLike {
  on(type: 'broadcast', filter: { event: string }, callback: (message: { payload?: unknown }) => void): RealtimeChannelLike;
  subscribe(callback: (status: string, error?: Error) => void): RealtimeChannelLike;
}

export interface RealtimeClientLike {
  channel(name: string): RealtimeChannelLike;
  removeChannel(channel: RealtimeChannelLike): unknown;
}

const RETRY_LOAD_MS = 5000;

interface ChannelHandlers {
  onChange: (change: PlanChange) => void;
  /** SUBSCRIBED: `resumed` when it follows a drop. */
  onSubscribed: (resumed: boolean) => void;
  onDown: () => void;
}

/** One `plan:{id}` channel; resolves the client lazily and retries a failed load. */
function planChannel(load: () => Promise<RealtimeClientLike>, planId: string, handlers: ChannelHandlers) {
  let closed = false;
  let attached: { client: RealtimeClientLike; channel: RealtimeChannelLike } | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let subscribedOnce = false;
  let down = false;

  const attach = () => {
    load().then(
      (client) => {
        if (closed) return;
        const channel = client
          .channel(realtimeTopic(planId))
          .on('broadcast', { event: 'change' }, ({ payload }) => {
            const change = parseChange(payload);
            if (!closed && change?.planId === planId) handlers.onChange(change);
          })
          .subscribe((status) => {
            if (closed) return;
            if (status === 'SUBSCRIBED') {
              const resumed = subscribedOnce && down;
              subscribedOnce = true;
              down = false;
              handlers.onSubscribed(resumed);
            } else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT' || status === 'CLOSED') {
              // supabase-js rejoins by itself; until then we are behind.
              down = true;
              handlers.onDown();
            }
          });
        attached = { client, channel };
      },
      () => {
        if (closed) return;
        down = true;
        handlers.onDown();
        retry = setTimeout(attach, RETRY_LOAD_MS);
      },
    );
  };
  attach();

  return {
    close() {
      closed = true;
      clearTimeout(retry);
      if (attached) void attached.client.removeChannel(attached.channel);
      attached = null;
    },
  };
}

export function createRealtimeTransport(load: () => Promise<RealtimeClientLike>): LiveTransport {
  return {
    openPlan(planId, emit) {
      return planChannel(load, planId, {
        onChange: (change) => emit({ type: 'change', change }),
        onSubscribed: (resumed) => {
          emit({ type: 'status', status: 'live' });
          // No versions here: a fresh subscription catches up by age, a resumed one refetches once.
          if (resumed) emit({ type: 'change', change: fullChange(planId, UNKNOWN_VERSION) });
          else emit({ type: 'ready', version: null });
        },
        onDown: () => emit({ type: 'status', status: 'reconnecting' }),
      });
    },

    openMyPlans(initialIds, emit) {
      const channels = new Map<string, ReturnType<typeof planChannel>>();
      const down = new Set<string>();
      const waiting = new Set(initialIds);
      let ready = false;
      let status: LiveStatus | null = null;
      const report = () => {
        const next: LiveStatus = down.size > 0 ? 'reconnecting' : 'live';
        if (next !== status) emit({ type: 'status', status: (status = next) });
      };
      const maybeReady = () => {
        if (ready || waiting.size > 0) return;
        ready = true;
        report();
        emit({ type: 'ready', planIds: [...channels.keys()] });
      };
      const add = (planId: string) => {
        channels.set(
          planId,
          planChannel(load, planId, {
            onChange: (change) => emit({ type: 'change', change }),
            onSubscribed: (resumed) => {
              down.delete(planId);
              waiting.delete(planId);
              if (resumed) emit({ type: 'change', change: fullChange(planId, UNKNOWN_VERSION) });
              if (ready) report();
              else maybeReady();
            },
            onDown: () => {
              down.add(planId);
              if (ready) report();
            },
          }),
        );
      };
      initialIds.forEach(add);
      queueMicrotask(maybeReady); // no plans: ready at once

      return {
        watch(planIds) {
          const next = new Set(planIds);
          for (const [id, channel] of channels) {
            if (next.has(id)) continue;
            channel.close();
            channels.delete(id);
            down.delete(id);
            waiting.delete(id);
          }
          for (const id of next) if (!channels.has(id)) add(id);
          if (ready) report();
          else maybeReady();
        },
        close() {
          for (const channel of channels.values()) channel.close();
          channels.clear();
        },
      };
    },
  };
}

/** The lazy Supabase client: supabase-js is fetched only by builds and visits that use it. */
export function supabaseRealtimeLoader(url: string, anonKey: string): () => Promise<RealtimeClientLike> {
  let loading: Promise<RealtimeClientLike> | undefined;
  return () =>
    (loading ??= import('@supabase/supabase-js').then(
      ({ createClient }) => {
        // Only Realtime is used: no Supabase session of its own (the app has its token).
        const client = createClient(url, anonKey, {
          auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        });
        return {
          channel: (name) => client.channel(name) as unknown as RealtimeChannelLike,
          removeChannel: (channel) => client.removeChannel(channel as unknown as ReturnType<typeof client.channel>),
        };
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
}

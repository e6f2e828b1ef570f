// GET /api/health: liveness for the local stack and monitors; answers without
// touching the database. Not a domain, so not under routes/ (app.ts registers it).
// With EXPOSE_MEMORY_STATS=1 (set only by `npm run bench:live`, which also
// starts Deno with --expose-gc), `?memory=1` first collects garbage and then
// reports the isolate's memory, so the bench can tell live memory per open
// stream from heap the engine merely keeps in reserve.
// HANGPLAN_INSTANCE (set by the local stack, a fresh id per start) is echoed in
// the `x-hangplan-instance` header, so `npm start` can tell its own API from
// one left running by another run.
import type { Context } from 'hono';
import { readEnv } from '../_shared/config/env.ts';

export function health(c: Context): Response {
  const instance = readEnv('HANGPLAN_INSTANCE');
  if (instance) c.header('x-hangplan-instance', instance);
  if (c.req.query('memory') && readEnv('EXPOSE_MEMORY_STATS') === '1') {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    gc?.();
    return c.json({ ok: true, memory: Deno.memoryUsage() });
  }
  return c.json({ ok: true });
}

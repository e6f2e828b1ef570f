// Liveness for the local stack and monitors: answers without touching the database.
import { Hono } from 'hono';

export const healthRoutes = new Hono().get('/', (c) => c.json({ ok: true }));

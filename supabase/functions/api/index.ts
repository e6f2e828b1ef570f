// Entry point of the `api` Edge Function: serving only; everything else is in app.ts.
import { handler } from './handler.ts';

Deno.serve({ port: Number(Deno.env.get('PORT') ?? 8000) }, handler);

// The bare baseline of `npm run bench:live`: what an open Server-Sent Events
// stream costs Deno.serve itself (one `ready` event, a heartbeat timer),
// with nothing of Hangplan's (no router, database, feed or claims). The
// bench opens as many streams here as on the API and compares the memory.
const encoder = new TextEncoder();

Deno.serve({ port: Number(Deno.env.get('PORT') ?? 8000), onListen: () => {} }, (request) => {
  if (new URL(request.url).pathname === '/memory') {
    // Started with --expose-gc: live memory, not what the engine keeps in reserve.
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    gc?.();
    return Response.json(Deno.memoryUsage());
  }
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('event: ready\ndata: {}\n\n'));
      timer = setInterval(() => controller.enqueue(encoder.encode(': ping\n\n')), 20_000);
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
});

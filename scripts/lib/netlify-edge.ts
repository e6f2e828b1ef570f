// Starts scripts/lib/netlify-edge.deno.ts: the Netlify edge function of the
// link page (web/hosting/netlify/edge-functions/link-preview.ts) under Deno,
// in front of a build of the web app, as the host runs it. For the end-to-end
// tests (e2e/previews.spec.ts) and the bench's row of the link page.
import path from 'node:path';
import { ROOT } from './root.ts';
import { freePort, spawnService, waitForHttp, type Service } from './services.ts';

export interface NetlifyEdge {
  url: string;
  service: Service;
}

/** `webDir`: a build of the web app; `apiUrl`: HANGPLAN_API_URL, e.g. http://127.0.0.1:54321/functions/v1/api. */
export async function startNetlifyEdge(webDir: string, apiUrl: string): Promise<NetlifyEdge> {
  const port = await freePort();
  // No --config: Netlify's bundler resolves the npm imports from the site's
  // node_modules (package.json), and Deno does the same from the root.
  const service = spawnService(
    'netlify-edge',
    path.join(ROOT, 'node_modules/.bin/deno'),
    ['run', '--allow-net', '--allow-env', '--allow-read', path.join(ROOT, 'scripts/lib/netlify-edge.deno.ts')],
    { env: { PORT: String(port), WEB_DIR: webDir, HANGPLAN_API_URL: apiUrl, DENO_NO_UPDATE_CHECK: '1' } },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/`, 30_000, service);
  } catch (error) {
    await service.stop();
    throw error;
  }
  return { url, service };
}

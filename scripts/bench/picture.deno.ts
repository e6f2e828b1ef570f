// The CPU time of drawing the link-preview picture (docs/performance.md
// "The preview picture"), in a fresh Deno like a fresh function instance:
// loading the drawing's modules, the first drawing (reading the fonts and the
// wasm, starting the wasm, parsing the fonts) and a warm drawing. Run:
//   npx deno run --allow-read --allow-env --config supabase/functions/api/deno.json scripts/bench/picture.deno.ts
import process from 'node:process';

const cpuMs = (since?: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
  const start = process.cpuUsage();
  const wall = performance.now();
  const result = await work();
  console.log(`${name}: ${cpuMs(start).toFixed(0)} ms CPU, ${(performance.now() - wall).toFixed(0)} ms wall`);
  return result;
};

const { drawPicture } = await step('load the drawing (satori, resvg-wasm glue)', () => import('../../supabase/functions/api/routes/previews/draw.ts'));
const plan = {
  title: 'Ramen night at Kenji’s — Αθήνα, Москва, Łódź',
  line: 'Saturday, December 5 at 7:30 PM, Kenji Ramen · 5 going',
  host: 'Hana',
};
const first = await step('first drawing (fonts and wasm read, wasm started)', () => drawPicture(plan));
for (let i = 0; i < 3; i++) await step('warm drawing', () => drawPicture({ ...plan, title: `${plan.title} ${i}` }));
console.log(`PNG: ${first.byteLength} bytes`);

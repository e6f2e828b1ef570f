// Load with autocannon, and a row measured in slices alternating with its
// baselines' (the same moments of a run on a shared machine).
import autocannon from 'autocannon';
import { readFileSync, readdirSync } from 'node:fs';
import { CONNECTIONS, SECONDS, SLICES, WARMUP_SECONDS } from './options.ts';

export interface Load {
  name: string;
  kind: 'read' | 'write' | 'extra';
  method?: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  /** A body (and its guest's secret header, and maybe another path) per request, rotating through voters. */
  body?: () => { body: unknown; headers?: Record<string, string>; path?: string };
  /** The status every answer should have (default: any 2xx). */
  expect?: number;
}

/** A load on a server, and the process group(s) whose CPU time is its cost. */
export interface Target {
  base: string;
  load: Load;
  group: number | number[] | undefined;
}

/** One target over a row's slices. Latency: the mean p50, the worst p99. */
export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  /** Failed requests, timeouts and answers with an unexpected status. */
  errors: number;
  /** CPU ms per request of the database and of the server (Linux; undefined elsewhere). */
  cpu?: { db: number; server: number };
}

export function run(base: string, load: Load, seconds: number) {
  return autocannon({
    url: `${base}${load.path}`,
    connections: CONNECTIONS,
    duration: seconds,
    method: load.method ?? 'GET',
    headers: { ...(load.body ? { 'content-type': 'application/json' } : {}), ...load.headers },
    requests: [
      {
        setupRequest: (request) => {
          if (!load.body) return request;
          const next = load.body();
          return {
            ...request,
            ...(next.path ? { path: `${new URL(base).pathname}${next.path}` } : {}),
            body: JSON.stringify(next.body),
            headers: { ...request.headers, ...next.headers },
          };
        },
      },
    ],
  });
}

const CLOCK_TICKS = 100; // USER_HZ on Linux

/**
 * CPU time (ms) spent so far by the database's processes and by one process
 * group, from /proc: divided by the requests served, the cost of one request,
 * which the machine's load barely moves (unlike req/s). Zeros without /proc.
 */
function cpuMs(group: number | number[] | undefined): { db: number; server: number } {
  const total = { db: 0, server: 0 };
  if (group === undefined) return total;
  const groups = new Set(Array.isArray(group) ? group : [group]);
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return total;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    // After "(comm) ": state ppid pgrp ... utime (14th field) stime (15th).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    if (comm === 'postgres') total.db += ms;
    else if (groups.has(Number(fields[2]))) total.server += ms;
  }
  return total;
}

class Slices {
  private rps: number[] = [];
  private p50: number[] = [];
  private p99: number[] = [];
  private errors = 0;
  private cpu = { db: 0, server: 0, requests: 0 };

  constructor(private readonly target: Target) {}

  async measure(seconds: number): Promise<void> {
    const { base, load, group } = this.target;
    const before = cpuMs(group);
    const result = await run(base, load, seconds);
    const after = cpuMs(group);
    this.cpu.db += after.db - before.db;
    this.cpu.server += after.server - before.server;
    this.cpu.requests += result.requests.total;
    const statuses = (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
    const unexpected = load.expect
      ? Object.entries(statuses).reduce((n, [code, stat]) => n + (Number(code) === load.expect ? 0 : stat.count), 0)
      : result.non2xx;
    this.errors += result.errors + result.timeouts + unexpected;
    this.rps.push(result.requests.average);
    this.p50.push(result.latency.p50);
    this.p99.push(result.latency.p99);
  }

  sample(): Sample {
    const { db, server, requests } = this.cpu;
    return {
      rps: mean(this.rps),
      p50: Math.round(mean(this.p50)),
      p99: Math.max(...this.p99),
      errors: this.errors,
      cpu: requests && db ? { db: db / requests, server: server / requests } : undefined,
    };
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * A row and its baselines at the same moments: a warm-up of the row first,
 * not counted (every connection prepares its statements, the engine compiles
 * the row's code paths), then SLICES slices of each baseline and the row in
 * turn, SECONDS in all for each. The load of a shared machine drifts during
 * a run; alternating keeps that drift out of the ratios.
 */
export async function measure(row: Target, baselines: Target[]): Promise<{ row: Sample; baselines: Sample[] }> {
  if (WARMUP_SECONDS) await run(row.base, row.load, WARMUP_SECONDS);
  const rowSlices = new Slices(row);
  const baseSlices = baselines.map((b) => new Slices(b));
  for (let i = 0; i < SLICES; i++) {
    for (const b of baseSlices) await b.measure(SECONDS / SLICES);
    await rowSlices.measure(SECONDS / SLICES);
  }
  return { row: rowSlices.sample(), baselines: baseSlices.map((b) => b.sample()) };
}

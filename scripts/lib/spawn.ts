// Child processes of the local stack under a guard, with prefixed logs and a
// clean stop: the part of services.ts that knows nothing of what it starts.
//
// Every service runs under a guard (guard.mjs, plain node) that holds a pipe
// from this process: when this process ends, however it ends (Ctrl-C, a hang-up,
// a crash, SIGKILL), the pipe closes and the guard takes the service's whole
// process group down. See docs/stack-lifecycle.md.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './root.ts';

const GUARD = path.join(ROOT, 'scripts/lib/guard.mjs');

export type Log = (line: string) => void;

export interface ServiceExit {
  code: number | null;
  signal: string | null;
}

export interface Service {
  name: string;
  /** The guard: parent of the service, holding its lifeline. */
  guard: ChildProcess;
  /** The service's pid, which is also its process group id. */
  spawned: Promise<number>;
  pid: () => number | undefined;
  /** Resolves once the service (and its guard) have ended. */
  exited: Promise<ServiceExit>;
  hasExited: () => boolean;
  /** The last lines the service printed, for error messages. */
  recentOutput: () => string;
  /** "exited with code 1" / "was killed by SIGKILL". */
  describeExit: () => string;
  stop: () => Promise<void>;
}

/** Services of this process that have not ended yet, in the order they started. */
const live = new Set<Service>();

/**
 * Stop every service this process started that is still running, the newest
 * first (for a stop in the middle of a start, before a stack exists to stop).
 */
export async function stopAllServices(): Promise<void> {
  for (const service of [...live].reverse()) await service.stop();
}

const COLORS = [36, 35, 33, 32, 34, 31];
let colorIndex = 0;

/** A logger that prefixes each line with `[name]`, coloured on a TTY. */
export function prefixedLog(name: string, sink: NodeJS.WriteStream = process.stdout): Log {
  const color = COLORS[colorIndex++ % COLORS.length];
  const tag = sink.isTTY ? `\x1b[${color}m[${name.padEnd(5)}]\x1b[0m` : `[${name.padEnd(5)}]`;
  return (text) => {
    for (const line of text.split(/\r?\n/)) if (line.trim()) sink.write(`${tag} ${line}\n`);
  };
}

export interface SpawnOptions {
  env?: Record<string, string>;
  log?: Log;
  cwd?: string;
  /** Run as this user (PostgreSQL refuses to run as root). */
  uid?: number;
  gid?: number;
  /** What asks the service to stop: SIGTERM by default, SIGINT for PostgreSQL's fast shutdown. */
  stopSignal?: 'SIGTERM' | 'SIGINT';
  /** Send stopSignal to the whole process group (default) or only to the service's own process. */
  signalGroup?: boolean;
  /** How long the service may take to stop before its group is killed (ms). */
  graceMs?: number;
  /** Folders the guard deletes once the service has ended (throwaway data). */
  removeOnExit?: string[];
}

/** Start `command` under a guard, in a process group of its own. */
export function spawnService(name: string, command: string, args: string[], opts: SpawnOptions = {}): Service {
  const graceMs = opts.graceMs ?? 5000;
  const spec = {
    command,
    args,
    cwd: opts.cwd ?? ROOT,
    uid: opts.uid,
    gid: opts.gid,
    stopSignal: opts.stopSignal ?? 'SIGTERM',
    signalGroup: opts.signalGroup ?? true,
    graceMs,
    removeOnExit: opts.removeOnExit ?? [],
  };
  const guard = spawn(process.execPath, [GUARD, JSON.stringify(spec)], {
    cwd: spec.cwd,
    env: { ...process.env, ...opts.env },
    // stdin: the lifeline; stdout: the guard's events; stderr: the service's output.
    stdio: ['pipe', 'pipe', 'pipe'],
    // A session of its own: a terminal's Ctrl-C or hang-up reaches this
    // process, which stops the services in order; the guards only follow it.
    detached: true,
  });
  guard.stdin?.on('error', () => {});

  const log = opts.log ?? (() => {});
  const tail: string[] = [];
  let partial = '';
  guard.stderr?.on('data', (d: Buffer) => {
    const text = partial + d.toString();
    const lines = text.split(/\r?\n/);
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > 20) tail.shift();
      log(line);
    }
  });
  guard.stderr?.on('end', () => {
    if (partial.trim()) {
      tail.push(partial);
      log(partial);
    }
    partial = '';
  });

  let pid: number | undefined;
  let reported: ServiceExit | undefined;
  let resolveSpawned: (pid: number) => void = () => {};
  let rejectSpawned: (error: Error) => void = () => {};
  const spawned = new Promise<number>((resolve, reject) => {
    resolveSpawned = resolve;
    rejectSpawned = reject;
  });
  spawned.catch(() => {});
  let events = '';
  guard.stdout?.on('data', (d: Buffer) => {
    events += d.toString();
    let cut;
    while ((cut = events.indexOf('\n')) >= 0) {
      const line = events.slice(0, cut);
      events = events.slice(cut + 1);
      try {
        const event = JSON.parse(line) as { event: string; pid?: number; code?: number | null; signal?: string | null };
        if (event.event === 'spawned' && event.pid) {
          pid = event.pid;
          resolveSpawned(pid);
        } else if (event.event === 'exit') {
          reported = { code: event.code ?? null, signal: event.signal ?? null };
        }
      } catch {
        /* not an event */
      }
    }
  });

  // The guard's stdout is held by the guard alone: once it has closed, every
  // event the guard sent has been read, so the exit is the service's own.
  const eventsRead = new Promise<void>((resolve) => {
    if (!guard.stdout) return resolve();
    guard.stdout.once('close', resolve);
    guard.stdout.once('error', () => resolve());
  });
  let done = false;
  const exited = new Promise<ServiceExit>((resolve) => {
    guard.once('exit', (code, signal) => {
      void eventsRead.then(() => {
        done = true;
        const exit = reported ?? { code, signal };
        rejectSpawned(new Error(`${name} ${describe(exit)} before it started`));
        resolve(exit);
      });
    });
    guard.once('error', (error) => {
      done = true;
      rejectSpawned(error);
      resolve({ code: 127, signal: null });
    });
  });
  const describe = (exit: ServiceExit) =>
    exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;

  let stopping: Promise<void> | undefined;
  const service: Service = {
    name,
    guard,
    spawned,
    pid: () => pid,
    exited,
    hasExited: () => done,
    recentOutput: () => tail.join('\n'),
    describeExit: () => (reported || done ? describe(reported ?? { code: guard.exitCode, signal: guard.signalCode }) : 'is running'),
    stop: () => {
      stopping ??= (async () => {
        if (done) return;
        // Closing the lifeline is the one way to stop a service: the guard
        // does the rest (stop signal, then SIGKILL after graceMs).
        guard.stdin?.destroy();
        const timer = setTimeout(() => {
          // The guard itself is stuck: take the group down from here.
          for (const target of [pid ? -pid : 0, guard.pid ? -guard.pid : 0]) {
            if (!target) continue;
            try {
              process.kill(target, 'SIGKILL');
            } catch {
              /* gone */
            }
          }
        }, graceMs + 3000);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
  live.add(service);
  void exited.then(() => live.delete(service));
  return service;
}

/** Throws with what the service printed last, for a failed start. */
export function serviceFailure(service: Service, what: string): Error {
  const output = service.recentOutput();
  return new Error(`${service.name} ${service.describeExit()} ${what}${output ? `; its last output:\n${output}` : ''}`);
}

// Which local TCP ports are taken, and by whom. Linux tells through /proc
// (the listening sockets in /proc/net/tcp{,6}, their owners through the
// socket inodes in /proc/<pid>/fd); elsewhere a trial bind still tells
// whether a port is free, just not who holds it.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';

/** Inodes of the sockets listening on `port` (any address), from /proc/net. */
export function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // sl local_address rem_address st ... inode (field 9)
      if (f.length < 10 || f[3] !== '0A') continue;
      if (parseInt(f[1].split(':')[1], 16) === port) inodes.add(f[9]);
    }
  }
  return inodes;
}

/** Pids of processes holding one of `inodes` open (those this user may see). */
function pidsHolding(inodes: Set<string>, pids?: number[]): number[] {
  if (inodes.size === 0) return [];
  const found: number[] = [];
  let candidates = pids;
  if (!candidates) {
    try {
      candidates = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number);
    } catch {
      return [];
    }
  }
  for (const pid of candidates) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (m && inodes.has(m[1])) {
        found.push(pid);
        break;
      }
    }
  }
  return found;
}

export function commandLine(pid: number): string | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const text = raw.split('\0').filter(Boolean).join(' ');
    return text.length > 120 ? `${text.slice(0, 117)}...` : text || undefined;
  } catch {
    return undefined;
  }
}

/** A short name for a process: "postgres", "deno run", "node maildev", with its working folder. */
function shortCommand(pid: number): string | undefined {
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
  if (argv.length === 0) return undefined;
  const base = (arg: string) => arg.split('/').pop() ?? arg;
  const name = [base(argv[0])];
  const next = argv[1];
  if (next && /^(node|deno|bun|python3?)$/.test(name[0])) name.push(next.startsWith('-') ? '...' : base(next));
  let cwd: string | undefined;
  try {
    cwd = readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    /* another user's */
  }
  return cwd ? `${name.join(' ')} in ${cwd}` : name.join(' ');
}

/** Who listens on `port`: "pid 123 (deno run in /work/old)", or undefined if the system does not say. */
export function describeHolder(port: number): string | undefined {
  const pids = pidsHolding(listeningInodes(port));
  if (pids.length === 0) return undefined;
  // Forked servers (PostgreSQL) share the socket: the oldest is the server.
  const pid = Math.min(...pids);
  const cmd = shortCommand(pid);
  return cmd ? `pid ${pid} (${cmd})` : `pid ${pid}`;
}

/** True when `pid` itself holds a socket listening on `port`. Undefined where /proc cannot tell. */
export function listensOn(pid: number, port: number): boolean | undefined {
  try {
    readdirSync(`/proc/${pid}/fd`);
  } catch {
    return undefined;
  }
  return pidsHolding(listeningInodes(port), [pid]).length > 0;
}

function canBind(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      // No such address here (e.g. no IPv6 loopback): nothing can hold it there.
      resolve(error.code === 'EADDRNOTAVAIL' || error.code === 'EAFNOSUPPORT');
    });
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** True when nothing listens on `port` (any local address) and it can be bound on loopback. */
export async function isPortFree(port: number): Promise<boolean> {
  if (listeningInodes(port).size > 0) return false;
  return (await canBind(port, '127.0.0.1')) && (await canBind(port, '::1'));
}

export interface PortNeed {
  port: number;
  /** What it is for, e.g. "the API". */
  role: string;
  /** The setting that moves it, e.g. "API_PORT". */
  setting?: string;
}

export class PortBusyError extends Error {
  constructor(
    message: string,
    readonly ports: number[],
  ) {
    super(message);
    this.name = 'PortBusyError';
  }
}

/** Throws one sentence naming every busy port and, where the system says, what holds it. */
export async function assertPortsFree(needs: PortNeed[]): Promise<void> {
  const busy: PortNeed[] = [];
  for (const need of needs) if (!(await isPortFree(need.port))) busy.push(need);
  if (busy.length === 0) return;
  const parts = busy.map((b, i) => {
    const holder = describeHolder(b.port);
    const what = `port ${b.port} (${b.role}${b.setting ? `, ${b.setting}` : ''})`;
    if (i === 0) return `${what} is already in use${holder ? ` by ${holder}` : ''}`;
    return `${what}${holder ? ` by ${holder}` : ' too'}`;
  });
  const settings = [...new Set(busy.map((b) => b.setting).filter(Boolean))];
  const many = busy.length > 1;
  const advice = settings.length
    ? `stop ${many ? 'them' : 'it'} or set ${settings.join(' / ')} to ${many ? 'free ports' : 'a free port'}`
    : `stop ${many ? 'them' : 'it'} first`;
  throw new PortBusyError(`${parts.join(', ')}: ${advice}.`, busy.map((b) => b.port));
}

// A service's keeper, run with plain `node` (no TypeScript, no dependencies):
//
//   node guard.mjs '<json: {command, args, cwd?, uid?, gid?, stopSignal?, signalGroup?, graceMs?, removeOnExit?}>'
//
// It starts the command as the leader of a process group of its own and stays
// its parent. Its stdin is a pipe from the process that started it (the
// "lifeline"): nobody writes to it, so it reaches end-of-file exactly when that
// process closes it or dies, however it dies (a signal handler, a crash,
// SIGKILL: the kernel closes the dead process's pipes). Then the guard stops
// the whole group: `stopSignal` (SIGTERM, or SIGINT for PostgreSQL's fast
// shutdown), and SIGKILL for whatever is left after `graceMs`. When the
// command ends by itself the guard kills any leftovers of its group and exits
// with the command's exit code (128 + signal number after a signal). The
// folders in `removeOnExit` (a throwaway database, a throwaway build) are
// deleted once the command has ended, so even a killed test run leaves none.
//
// The child writes both its streams to the guard's stderr. The guard's stdout
// carries one JSON line per event for the starter: {"event":"spawned","pid"},
// {"event":"exit","code","signal"}.
/* global process, setTimeout, setInterval */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { constants } from 'node:os';

const spec = JSON.parse(process.argv[2]);
const stopSignal = spec.stopSignal || 'SIGTERM';
const graceMs = spec.graceMs ?? 5000;

// Nobody may need the starter's output any more: never die of a closed pipe.
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});
const tell = (message) => {
  try {
    process.stdout.write(JSON.stringify(message) + '\n');
  } catch {
    /* the starter is gone */
  }
};

let child;
try {
  child = spawn(spec.command, spec.args || [], {
    cwd: spec.cwd,
    env: process.env,
    stdio: ['ignore', 2, 2],
    detached: true,
    ...(spec.uid !== undefined ? { uid: spec.uid, gid: spec.gid } : {}),
  });
} catch (error) {
  process.stderr.write(`could not start ${spec.command}: ${error.message}\n`);
  process.exit(127);
}

let childGone = false;
let stopping = false;

function killGroup(signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* the group is empty */
  }
}

function stop() {
  if (stopping) return;
  stopping = true;
  if (childGone) return finish();
  try {
    if (spec.signalGroup === false) child.kill(stopSignal);
    else process.kill(-child.pid, stopSignal);
  } catch {
    /* already gone */
  }
  setTimeout(() => killGroup('SIGKILL'), graceMs).unref();
}

let exitCode = 0;
function finish() {
  // Leftovers of the group (e.g. a helper of the command) go with it.
  killGroup('SIGKILL');
  for (const dir of spec.removeOnExit || []) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      /* left for the starter */
    }
  }
  // Exit once the events are written (pipes are asynchronous on macOS).
  const exit = () => process.exit(exitCode);
  setTimeout(exit, 500);
  try {
    process.stdout.write('', exit);
  } catch {
    exit();
  }
}

child.on('error', (error) => {
  process.stderr.write(`could not start ${spec.command}: ${error.message}\n`);
  tell({ event: 'exit', code: 127, signal: null });
  process.exit(127);
});
child.on('spawn', () => tell({ event: 'spawned', pid: child.pid }));
child.on('exit', (code, signal) => {
  childGone = true;
  exitCode = code ?? 128 + (constants.signals[signal] ?? 0);
  tell({ event: 'exit', code, signal });
  finish();
});

// The lifeline. End-of-file, an error, or the starter no longer being our
// parent (a belt to the braces, polled) all mean: stop.
const starter = process.ppid;
process.stdin.on('data', () => {});
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.on('error', stop);
setInterval(() => {
  if (process.ppid !== starter) stop();
}, 1000).unref();

// The guard lives in a session of its own, so a terminal's Ctrl-C or hang-up
// never reaches it directly; should someone signal it anyway, stop cleanly.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop);

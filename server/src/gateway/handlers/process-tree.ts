import fs from 'node:fs';
import os from 'node:os';

/**
 * The nice value of handler processes: below the gateway's (0), so that neither a busy handler nor the
 * processes it starts (which inherit it) take a core from the gateway.
 */
const handlerPriority = 19;

/** One process as /proc describes it. */
interface ProcessEntry {
  pid: number;
  ppid: number;
  pgrp: number;
  /** Start time in clock ticks since boot: with the pid, names one process even after its pid is reused. */
  start: number;
  residentBytes: number;
}

const pageSize = 4096;
/** How long a reading of /proc serves every module's check (they run on the same interval). */
const tableReuseMs = 200;
let table: { at: number; entries: ProcessEntry[] } | undefined;
/** Each process as last read, by pid. */
const lastRead = new Map<number, ProcessEntry>();
/** The trees being watched: their members are read afresh on every reading. */
const watched = new Set<ProcessTree>();

/**
 * The fields of one `/proc/<pid>/stat` line that a tree needs, or `undefined` when the line is not one. The command
 * name (field 2) may hold spaces and parentheses, so fields are counted after its last `)`; only the fields up to
 * the resident size are cut out (a line has 52), as every process is read twice a second.
 */
export function statFields(stat: string): Omit<ProcessEntry, 'pid'> | undefined {
  const wanted = [1, 2, 19, 21];
  const values: number[] = [];
  let start = stat.lastIndexOf(')') + 2;
  if (start < 2) return undefined;
  for (let field = 0; values.length < wanted.length; field++) {
    const end = stat.indexOf(' ', start);
    if (field === wanted[values.length]) {
      const value = Number(stat.slice(start, end === -1 ? undefined : end));
      if (!Number.isSafeInteger(value)) return undefined;
      values.push(value);
    }
    if (end === -1) break;
    start = end + 1;
  }
  if (values.length < wanted.length) return undefined;
  const [ppid, pgrp, startTime, residentPages] = values;
  return { ppid, pgrp, start: startTime, residentBytes: residentPages * pageSize };
}

function readEntry(pid: number): ProcessEntry | undefined {
  try {
    const fields = statFields(fs.readFileSync(`/proc/${pid}/stat`, 'latin1'));
    return fields && { pid, ...fields };
  } catch {
    return undefined; // gone meanwhile
  }
}

/**
 * Every process from /proc (empty where there is none). A process is read from its `/proc/<pid>/stat` when it
 * first appears and, while it belongs to a watched tree, at every reading (its memory). Any other process keeps
 * the fields it was read with: its parent and group cannot make it a tree's member later (a process joins a tree
 * only as a descendant, when it starts, or as one that enters the leader's group, which only the tree's own
 * processes do), so reading the whole machine twice a second is not needed. A pid reused between two readings is
 * taken for the process it was: the kernel hands pids out in turn, so that takes `pid_max` new processes within a
 * reading's interval.
 */
function processTable(): ProcessEntry[] {
  const now = performance.now();
  if (table && now - table.at < tableReuseMs) return table.entries;
  let names: string[] = [];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    // not Linux
  }
  const followed = new Set<number>();
  for (const tree of watched) tree.addPids(followed);
  const entries: ProcessEntry[] = [];
  const present = new Set<number>();
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isSafeInteger(pid) || pid <= 0) continue;
    present.add(pid);
    let entry = followed.has(pid) ? undefined : lastRead.get(pid);
    if (entry === undefined) {
      entry = readEntry(pid);
      if (entry === undefined) continue;
      lastRead.set(pid, entry);
    }
    entries.push(entry);
  }
  for (const pid of lastRead.keys()) if (!present.has(pid)) lastRead.delete(pid);
  table = { at: now, entries };
  return entries;
}

/**
 * The processes of one handler module: its process, started as the leader of a process group of its own
 * (`detached`), everything in that group, and every descendant seen of any of them, even one that left the
 * group (`setsid`) or whose parent ended. Its resident memory is the sum over all of them, and {@link kill}
 * ends all of them, so that nothing a handler starts outlives, or outgrows, its module.
 *
 * Without cgroups this is a watch, not a bound the kernel keeps: a descendant that leaves the group and is
 * orphaned between two readings is not seen (docs/handlers.md says what runs where).
 */
export class ProcessTree {
  /** Members seen so far, by pid, with their start time. */
  private readonly members = new Map<number, number>();

  constructor(private readonly leader: number) {
    watched.add(this);
    try {
      os.setPriority(leader, handlerPriority);
    } catch {
      // Not allowed here (some sandboxes): the gateway's own priority.
    }
  }

  /** Resident memory of every process of the tree, in bytes; 0 where there is no /proc. */
  residentBytes(): number {
    return this.refresh().reduce((sum, entry) => sum + entry.residentBytes, 0);
  }

  /** Kills every process of the tree at once (SIGKILL), the group first, and ends the watch. */
  kill(): void {
    killGroup(this.leader);
    for (const entry of this.refresh()) signal(entry.pid);
    this.members.clear();
    watched.delete(this);
  }

  /** Adds the pids of the tree's processes (the leader and the members seen) to `pids`. */
  addPids(pids: Set<number>): void {
    pids.add(this.leader);
    for (const pid of this.members.keys()) pids.add(pid);
  }

  /** The tree's processes now, remembering them so a member that leaves the group is still found. */
  private refresh(): ProcessEntry[] {
    const entries = processTable();
    const byPid = new Map(entries.map((entry) => [entry.pid, entry]));
    const current = new Map<number, ProcessEntry>();
    for (const [pid, start] of this.members) {
      const entry = byPid.get(pid);
      if (entry?.start === start) current.set(pid, entry);
    }
    for (const entry of entries)
      if (entry.pid === this.leader || entry.pgrp === this.leader) current.set(entry.pid, entry);
    // Descendants of members, parents before children or not: repeat until nothing is added.
    for (let added = true; added;) {
      added = false;
      for (const entry of entries) {
        if (current.has(entry.pid) || !current.has(entry.ppid)) continue;
        current.set(entry.pid, entry);
        added = true;
      }
    }
    this.members.clear();
    for (const entry of current.values()) this.members.set(entry.pid, entry.start);
    return [...current.values()];
  }
}

/** Kills process group `leader` (SIGKILL): a handler process and what it started, before any {@link ProcessTree}. */
export function killGroup(leader: number): void {
  signal(-leader);
  signal(leader);
}

function signal(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

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

/** Every process from /proc/<pid>/stat (one read each); empty where there is no /proc. */
function processTable(): ProcessEntry[] {
  const now = performance.now();
  if (table && now - table.at < tableReuseMs) return table.entries;
  const entries: ProcessEntry[] = [];
  let names: string[] = [];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    // not Linux
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'latin1');
      // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      entries.push({
        pid: Number(name),
        ppid: Number(fields[1]),
        pgrp: Number(fields[2]),
        start: Number(fields[19]),
        residentBytes: Number(fields[21]) * pageSize,
      });
    } catch {
      // gone meanwhile
    }
  }
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

  /** Kills every process of the tree at once (SIGKILL), the group first. */
  kill(): void {
    killGroup(this.leader);
    for (const entry of this.refresh()) signal(entry.pid);
    this.members.clear();
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

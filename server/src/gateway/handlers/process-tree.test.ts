import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessTree, statFields } from './process-tree.js';

describe('statFields', () => {
  // Fields after the command: state ppid pgrp session tty tpgid flags ... starttime (20th) vsize rss (22nd) ...
  const rest = (ppid: number, pgrp: number, start: number, rss: number) =>
    ['S', ppid, pgrp, 7, 0, -1, 4194560, ...Array(12).fill(0), start, 1000, rss, '184467440737', 1, 1].join(' ');

  it('reads parent, group, start time and resident size after the command name', () => {
    expect(statFields(`42 (node) ${rest(1, 42, 9000, 25)}`)).toEqual({
      ppid: 1,
      pgrp: 42,
      start: 9000,
      residentBytes: 25 * 4096,
    });
  });

  it('counts fields after the last parenthesis, whatever the command name holds', () => {
    expect(statFields(`43 (a) b (c d) ${rest(42, 42, 9100, 3)}`)).toMatchObject({ ppid: 42, start: 9100 });
  });

  it('refuses a line that is not a stat line', () => {
    expect(statFields('')).toBeUndefined();
    expect(statFields('44 (x) S 1 2')).toBeUndefined();
    expect(statFields(`45 (x) ${rest(1, 2, 3, 4).replace(' 2 ', ' two ')}`)).toBeUndefined();
  });
});

/** Whether process `pid` is gone or ended (a zombie nobody has reaped yet). */
function ended(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** The pids of the `sleep 60` processes whose parent is `pid`. */
function sleepersOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((child) => {
      try {
        const parent = statFields(fs.readFileSync(`/proc/${child}/stat`, 'latin1'))?.ppid;
        return parent === pid && fs.readFileSync(`/proc/${child}/cmdline`, 'latin1') === 'sleep\u000060\u0000';
      } catch {
        return false;
      }
    });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(fs.existsSync('/proc/self/stat'))('ProcessTree', () => {
  const trees: ProcessTree[] = [];
  afterEach(() => trees.splice(0).forEach((tree) => tree.kill()));

  it('follows processes started after it was read, one that left the group too, and kills them all', async () => {
    // The children start after the tree's first reading: a process new since the last reading is read.
    const leader = spawn('sh', ['-c', 'sleep 0.5; sleep 60 & setsid sleep 60 & wait'], {
      detached: true,
      stdio: 'ignore',
    });
    const tree = new ProcessTree(leader.pid!);
    trees.push(tree);
    expect(tree.residentBytes()).toBeGreaterThan(0);
    let children: number[] = [];
    while (children.length < 2) {
      await sleep(100);
      children = sleepersOf(leader.pid!).filter((pid) => !ended(pid));
    }
    await sleep(250); // past the reading that served the first check
    expect(tree.residentBytes()).toBeGreaterThan(0);
    tree.kill();
    for (let tries = 0; tries < 50 && !children.every(ended); tries++) await sleep(100);
    expect(children.filter((pid) => !ended(pid))).toEqual([]);
  });
});

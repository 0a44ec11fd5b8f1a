import type { BgpPattern, Pattern, PropertyPath, Triple } from 'sparqljs';
import { unsupported } from './sparql-errors.js';
import type { ClosurePattern } from './path-closure.js';

type Node = Triple['subject'];

const isPath = (predicate: Triple['predicate']): predicate is PropertyPath =>
  (predicate as { type?: string }).type === 'path';

/**
 * The property paths of a group's basic graph patterns rewritten into plain triple patterns (SPARQL 1.1 §18.2.2.4):
 * a sequence `a/b` joins through a hidden node, an inverse `^a` swaps subject and object, an alternative `a|b` is a
 * UNION of its branches; a path of any length (`*`, `+`, `?`) becomes a {@link ClosurePattern} (a recursive query).
 * Every other pattern is kept as it is. Negated property sets (`!`) are refused by name.
 */
export function expandPropertyPaths(patterns: Pattern[]): Pattern[] {
  if (!patterns.some((p) => p.type === 'bgp' && p.triples.some((t) => isPath(t.predicate)))) return patterns;
  let hidden = 0;
  // A label no query can write (a blank node label never ends with "."): never one of the query's own nodes.
  const fresh = (): Node => ({ termType: 'BlankNode', value: `path${++hidden}.` }) as Node;

  const expand = (subject: Node, predicate: Triple['predicate'], object: Node): Pattern[] => {
    if (!isPath(predicate)) return [bgp([{ subject, predicate, object } as Triple])];
    const items = predicate.items as Triple['predicate'][];
    switch (predicate.pathType) {
      case '/': {
        const nodes = [subject, ...items.slice(1).map(fresh), object];
        return items.flatMap((item, i) => expand(nodes[i], item, nodes[i + 1]));
      }
      case '^':
        return expand(object as Node, items[0], subject);
      case '|':
        return [
          {
            type: 'union',
            patterns: items.map((item) => ({ type: 'group', patterns: expand(subject, item, object) })),
          },
        ];
      case '!':
        throw unsupported('negated property sets (!)');
      default: {
        const closure: ClosurePattern = { type: 'closure', subject, path: predicate, object };
        return [closure as unknown as Pattern];
      }
    }
  };

  return mergeBgps(
    patterns.flatMap((p) =>
      p.type === 'bgp' ? p.triples.flatMap((t) => expand(t.subject, t.predicate, t.object as Node)) : [p],
    ),
  );
}

const bgp = (triples: Triple[]): BgpPattern => ({ type: 'bgp', triples });

/** Neighbouring basic graph patterns as one, so that their triples are unfolded (and joined) together. */
function mergeBgps(patterns: Pattern[]): Pattern[] {
  const merged: Pattern[] = [];
  for (const p of patterns) {
    const last = merged[merged.length - 1];
    if (p.type === 'bgp' && last?.type === 'bgp') merged[merged.length - 1] = bgp([...last.triples, ...p.triples]);
    else merged.push(p);
  }
  return merged;
}

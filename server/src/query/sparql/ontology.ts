import N3 from 'n3';
import { MappingError, type MappedTriple, type TermMap } from './r2rml.js';
import { OWL, RDFS, rdfType } from './rdf.js';

/** The parts of an RDFS/OWL ontology the translator reasons with (DESIGN.md §6). */
export interface Ontology {
  /** class -> its direct super-classes */
  superClasses: Map<string, Set<string>>;
  /** property -> its direct super-properties */
  superProperties: Map<string, Set<string>>;
  /** property -> properties declared its inverse (both directions) */
  inverses: Map<string, Set<string>>;
  domains: Map<string, Set<string>>;
  ranges: Map<string, Set<string>>;
  labels: Map<string, string>;
  /** Prefixes declared in the ontology file, for clients that shorten IRIs. */
  prefixes: Record<string, string>;
}

const add = (map: Map<string, Set<string>>, key: string, value: string) => {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
};

/** An ontology with no axioms: queries see exactly the mapped triples. */
export const emptyOntology = (): Ontology => ({
  superClasses: new Map(),
  superProperties: new Map(),
  inverses: new Map(),
  domains: new Map(),
  ranges: new Map(),
  labels: new Map(),
  prefixes: {},
});

/** Reads an ontology from Turtle. Throws MappingError when it is not valid Turtle. */
export function loadOntology(text: string): Ontology {
  const ontology = emptyOntology();
  let quads: N3.Quad[];
  try {
    quads = new N3.Parser().parse(text, null, (prefix, iri) => {
      ontology.prefixes[prefix] = iri.value;
    });
  } catch (error) {
    throw new MappingError(`the ontology is not valid Turtle: ${(error as Error).message}`);
  }
  for (const { subject, predicate, object } of quads) {
    if (subject.termType !== 'NamedNode') continue;
    const s = subject.value;
    const o = object.value;
    switch (predicate.value) {
      case `${RDFS}subClassOf`:
        if (object.termType === 'NamedNode') add(ontology.superClasses, s, o);
        break;
      case `${RDFS}subPropertyOf`:
        if (object.termType === 'NamedNode') add(ontology.superProperties, s, o);
        break;
      case `${OWL}inverseOf`:
        add(ontology.inverses, s, o);
        add(ontology.inverses, o, s);
        break;
      case `${RDFS}domain`:
        add(ontology.domains, s, o);
        break;
      case `${RDFS}range`:
        add(ontology.ranges, s, o);
        break;
      case `${RDFS}label`:
        if (!ontology.labels.has(s) || (object.termType === 'Literal' && (object as N3.Literal).language === 'en'))
          ontology.labels.set(s, o);
        break;
    }
  }
  return ontology;
}

/** `start` and everything reachable from it through `edges` (cycles allowed). */
function closure(start: string, edges: Map<string, Set<string>>): Set<string> {
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length) {
    for (const next of edges.get(queue.pop()!) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return seen;
}

/** Properties `property` entails, each with whether subject and object are swapped (through owl:inverseOf). */
function entailedProperties(property: string, ontology: Ontology): { property: string; inverted: boolean }[] {
  const seen = new Map<string, { property: string; inverted: boolean }>();
  const queue = [{ property, inverted: false }];
  while (queue.length) {
    const item = queue.pop()!;
    const key = `${item.inverted ? '^' : ''}${item.property}`;
    if (seen.has(key)) continue;
    seen.set(key, item);
    for (const sup of ontology.superProperties.get(item.property) ?? [])
      queue.push({ property: sup, inverted: item.inverted });
    for (const inv of ontology.inverses.get(item.property) ?? [])
      queue.push({ property: inv, inverted: !item.inverted });
  }
  return [...seen.values()];
}

const iri = (value: string): TermMap => ({ kind: 'constant', term: { type: 'iri', value } });
const isLiteralMap = (map: TermMap) =>
  map.kind === 'constant' ? map.term.type === 'literal' : map.termType === 'literal';

/**
 * Saturates mapped triples with the ontology (Ontop's T-mappings): a triple of a property also
 * produces its super-properties and (swapped) their inverses; a type triple also produces the
 * super-classes; domains and ranges type the subjects and objects. Queries then need no reasoning.
 */
export function saturate(triples: readonly MappedTriple[], ontology: Ontology): MappedTriple[] {
  const out = new Map<string, MappedTriple>();
  const keep = (t: MappedTriple) => {
    const key = JSON.stringify([
      t.origin,
      t.child.from,
      t.parent,
      t.subject,
      t.predicate,
      t.object,
      t.subjectOnParent,
      t.objectOnParent,
      t.graphs,
    ]);
    if (!out.has(key)) out.set(key, t);
  };
  const typeTriples = (base: MappedTriple, onObject: boolean, cls: string) => {
    const subject = onObject ? base.object : base.subject;
    if (isLiteralMap(subject)) return;
    for (const c of closure(cls, ontology.superClasses)) {
      keep({
        ...base,
        subject,
        subjectOnParent: onObject ? base.objectOnParent : base.subjectOnParent,
        predicate: iri(rdfType),
        object: iri(c),
        objectOnParent: false,
      });
    }
  };
  for (const triple of triples) {
    keep(triple);
    if (triple.predicate.kind !== 'constant') continue;
    const property = triple.predicate.term.value;
    if (property === rdfType) {
      if (triple.object.kind === 'constant') typeTriples(triple, false, triple.object.term.value);
      continue;
    }
    for (const { property: entailed, inverted } of entailedProperties(property, ontology)) {
      const derived: MappedTriple = inverted
        ? {
            ...triple,
            subject: triple.object,
            object: triple.subject,
            subjectOnParent: triple.objectOnParent,
            objectOnParent: triple.subjectOnParent,
            predicate: iri(entailed),
          }
        : { ...triple, predicate: iri(entailed) };
      if (isLiteralMap(derived.subject)) continue;
      keep(derived);
      for (const d of ontology.domains.get(entailed) ?? []) typeTriples(derived, false, d);
      for (const r of ontology.ranges.get(entailed) ?? []) typeTriples(derived, true, r);
    }
  }
  return [...out.values()];
}

/** A table of one row: where the ontology's own triples are read from. */
const oneRow = { from: '(SELECT 1 AS one)' };

/**
 * The ontology's class and property hierarchies as triples of the graph, closed as RDFS entails them (rules
 * rdfs5, rdfs6, rdfs10, rdfs11): each class a sub-class of itself and of every class above it, each property
 * likewise. A query can then ask for the sub-classes of a class as well as for its instances.
 */
export function schemaTriples(ontology: Ontology): MappedTriple[] {
  const triples: MappedTriple[] = [];
  const hierarchy = (edges: Map<string, Set<string>>, predicate: string) => {
    const members = new Set([...edges.keys(), ...[...edges.values()].flatMap((supers) => [...supers])]);
    for (const member of members)
      for (const above of closure(member, edges))
        triples.push({
          origin: 'the ontology',
          child: oneRow,
          subject: iri(member),
          predicate: iri(predicate),
          object: iri(above),
          subjectOnParent: false,
          objectOnParent: false,
          graphs: [],
        });
  };
  hierarchy(ontology.superClasses, `${RDFS}subClassOf`);
  hierarchy(ontology.superProperties, `${RDFS}subPropertyOf`);
  return triples;
}

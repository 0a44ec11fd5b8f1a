import { createRequire } from 'node:module';
import type * as FastXmlParser from 'fast-xml-parser';
import type { XMLBuilder } from 'fast-xml-parser';
import { httpError } from '../core/errors.js';
import { isObject } from '../core/json.js';
import { nestingDepth } from './body-depth.js';
import { resolvePointer } from './model/json-pointer.js';

/** True for XML media types: `application/xml`, `text/xml` and any `+xml` type. */
export function isXmlMediaType(mediaType: string): boolean {
  const base = mediaType.split(';')[0].trim().toLowerCase();
  return base === 'application/xml' || base === 'text/xml' || base.endsWith('+xml');
}

const attribute = '@_';
const require = createRequire(import.meta.url);
let builder: XMLBuilder | undefined;

/**
 * The XML writer, made at the first XML answer from the package's CommonJS build: most servers write no XML, and
 * importing its ES modules at start took 35 ms (the CommonJS build loads in 9, when needed).
 */
function xmlBuilder(): XMLBuilder {
  if (!builder) {
    const { XMLBuilder } = require('fast-xml-parser') as typeof FastXmlParser;
    builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: attribute, suppressEmptyNode: true });
  }
  return builder;
}

/**
 * Levels of a value written as XML: the builder refuses more than 100 nested elements, and a wrapped array
 * takes two per level.
 */
export const maxXmlDepth = 48;
/** `$ref`s followed for one value at most: a recursive schema stops being read (its values are still written). */
const maxRefs = 64;

type Schema = Record<string, unknown>;
interface XmlHints {
  name?: string;
  attribute?: boolean;
  wrapped?: boolean;
  namespace?: string;
  prefix?: string;
}

/** Writes JSON values as XML under one document's schemas, following their `$ref`s. */
class XmlWriter {
  private refs = 0;

  constructor(private readonly document: unknown) {}

  /** The schema itself, its `$ref` followed (and `allOf` members' properties merged), or `{}`. */
  schema(node: unknown): Schema {
    let schema = node;
    while (isObject(schema) && typeof schema.$ref === 'string' && this.refs++ < maxRefs)
      schema = resolvePointer(this.document, schema.$ref);
    if (!isObject(schema)) return {};
    if (!Array.isArray(schema.allOf)) return schema;
    const properties = Object.assign({}, ...schema.allOf.map((member) => this.schema(member).properties ?? {}));
    return { ...schema, properties: { ...properties, ...(isObject(schema.properties) ? schema.properties : {}) } };
  }

  /** The element (or attribute) name the hints give, with their prefix. */
  static tag(hints: XmlHints, fallback: string): string {
    const name = typeof hints.name === 'string' ? hints.name : fallback;
    return typeof hints.prefix === 'string' ? `${hints.prefix}:${name}` : name;
  }

  /** The builder's node of one element: text, or children and attributes, with the namespace the hints declare. */
  element(value: unknown, schema: Schema): unknown {
    const hints = xmlHints(schema);
    const node: Record<string, unknown> = {};
    if (typeof hints.namespace === 'string')
      node[typeof hints.prefix === 'string' ? `${attribute}xmlns:${hints.prefix}` : `${attribute}xmlns`] =
        hints.namespace;
    if (Array.isArray(value)) this.addItems(node, value, this.schema(schema.items), 'item');
    else if (value !== null && typeof value === 'object')
      this.addProperties(node, value as Record<string, unknown>, schema);
    else if (Object.keys(node).length === 0) return value === null ? '' : value;
    else node['#text'] = value === null ? '' : value;
    return node;
  }

  private addProperties(node: Record<string, unknown>, value: Record<string, unknown>, schema: Schema): void {
    const properties = isObject(schema.properties) ? schema.properties : {};
    for (const [key, child] of Object.entries(value)) {
      if (child === undefined) continue;
      const childSchema = this.schema(Object.hasOwn(properties, key) ? properties[key] : undefined);
      const hints = xmlHints(childSchema);
      const tag = XmlWriter.tag(hints, key);
      if (hints.attribute === true && (child === null || typeof child !== 'object'))
        node[attribute + tag] = child === null ? '' : String(child);
      else if (Array.isArray(child) && hints.wrapped !== true)
        this.addItems(node, child, this.schema(childSchema.items), tag);
      else node[tag] = this.element(child, childSchema);
    }
  }

  /** An array's items as repeated elements, named by the items' hints or `fallback`. */
  private addItems(node: Record<string, unknown>, items: unknown[], itemSchema: Schema, fallback: string): void {
    node[XmlWriter.tag(xmlHints(itemSchema), fallback)] = items.map((item) => this.element(item, itemSchema));
  }
}

function xmlHints(schema: Schema): XmlHints {
  return isObject(schema.xml) ? (schema.xml as XmlHints) : {};
}

/**
 * A JSON value as XML text under the schema at `pointer` of `document`, following its OpenAPI `xml` hints:
 * `name` (the root's, else `xml`, as Prism names it), `attribute`, `wrapped` arrays, `namespace` and `prefix`.
 * Unwrapped arrays repeat their items' element; objects without a schema keep their property names. A value
 * nested deeper than {@link maxXmlDepth} (an echoed request body) is a 400 `BODY_TOO_DEEP`.
 */
export function toXml(value: unknown, document: unknown, pointer: string | undefined): string {
  if (nestingDepth(value, maxXmlDepth) > maxXmlDepth) throw httpError('BODY_TOO_DEEP', [maxXmlDepth]);
  const writer = new XmlWriter(document);
  const schema = writer.schema(pointer === undefined ? undefined : { $ref: pointer });
  const root = XmlWriter.tag(xmlHints(schema), 'xml');
  return xmlBuilder().build({ [root]: writer.element(value, schema) }) as string;
}

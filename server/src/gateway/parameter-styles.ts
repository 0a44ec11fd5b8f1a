import type { ParameterSpec } from './model/spec-types.js';

type Values = Record<string, unknown>;

/** A fresh object without a prototype: request-controlled keys such as `__proto__` stay plain keys. */
const emptyObject = () => Object.create(null) as Values;

/** The declared or default `style` of a parameter (OpenAPI 3: form for query and cookie, simple for path and header).
 * */
function styleOf(parameter: ParameterSpec): string {
  return parameter.style ?? (parameter.in === 'query' || parameter.in === 'cookie' ? 'form' : 'simple');
}

/** The declared or default `explode` (true for form, false otherwise). */
function explodes(parameter: ParameterSpec): boolean {
  return parameter.explode ?? styleOf(parameter) === 'form';
}

/**
 * Reads a delimited value into the parameter's container shape: `1,2` -> `['1', '2']`;
 * `k,v,k2,v2` -> `{k: 'v', k2: 'v2'}`, or `k=v,k2=v2` when exploded (simple style). Values stay
 * strings; the validator coerces them to the schema's types.
 */
function split(raw: unknown, parameter: ParameterSpec, delimiter: string, pairsWithEquals: boolean): unknown {
  if (typeof raw !== 'string') return raw;
  const items = raw === '' ? [] : raw.split(delimiter);
  if (parameter.shape === 'array') return items;
  const object = emptyObject();
  if (pairsWithEquals) {
    for (const item of items) {
      const eq = item.indexOf('=');
      if (eq > 0) object[item.slice(0, eq)] = item.slice(eq + 1);
      else return raw;
    }
    return object;
  }
  if (items.length % 2 !== 0) return raw;
  for (let i = 0; i < items.length; i += 2) object[items[i]] = items[i + 1];
  return object;
}

const delimiters: Record<string, string> = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' };

/**
 * The query as the spec's parameters describe it, for validation: array and object parameters are
 * assembled from their serialisation style (OpenAPI 3 "style values"): `ids=1,2` (form, not
 * exploded), `ids=1%202` / `ids=1|2` (space/pipe delimited), `filter[a]=1` (deepObject), and an
 * exploded form object spread over its own keys (`?offset=1&limit=2` for `pagination`). Repeated
 * keys already arrive as arrays. Returns a new object; other parameters are copied unchanged.
 */
export function shapeQuery(parameters: readonly ParameterSpec[], query: Values): Values {
  const shaped: Values = { ...query };
  const declared = parameters.filter((p) => p.in === 'query');
  const claimed = new Set(declared.map((p) => p.name));
  for (const parameter of declared) {
    if (!parameter.shape) continue;
    const style = styleOf(parameter);
    if (Object.hasOwn(query, parameter.name)) {
      const delimiter = delimiters[style];
      // An exploded form parameter arrives as repeated keys, already an array: nothing to split.
      if (delimiter !== undefined && !(style === 'form' && explodes(parameter)))
        shaped[parameter.name] = split(query[parameter.name], parameter, delimiter, false);
      continue;
    }
    if (parameter.shape !== 'object') continue;
    const object = emptyObject();
    if (style === 'deepObject') {
      const prefix = `${parameter.name}[`;
      for (const [key, value] of Object.entries(query)) {
        if (key.startsWith(prefix) && key.endsWith(']')) object[key.slice(prefix.length, -1)] = value;
      }
    } else if (style === 'form' && explodes(parameter)) {
      for (const key of parameter.properties ?? Object.keys(query)) {
        if (Object.hasOwn(query, key) && !claimed.has(key)) object[key] = query[key];
      }
    }
    if (Object.keys(object).length > 0) shaped[parameter.name] = object;
  }
  return shaped;
}

/**
 * Path or header values as the spec's parameters describe them: simple-style arrays (`1,2`) and
 * objects (`k,v` or, exploded, `k=v`). Header names are matched in lower case. Returns `values`
 * itself when no parameter needs it, else a shaped copy.
 */
export function shapeSimple(parameters: readonly ParameterSpec[], location: 'path' | 'header', values: Values): Values {
  const containers = parameters.filter((p) => p.in === location && p.shape && styleOf(p) === 'simple');
  if (containers.length === 0) return values;
  const shaped: Values = { ...values };
  for (const parameter of containers) {
    const key = location === 'header' ? parameter.name.toLowerCase() : parameter.name;
    if (Object.hasOwn(values, key)) shaped[key] = split(values[key], parameter, ',', explodes(parameter));
  }
  return shaped;
}
